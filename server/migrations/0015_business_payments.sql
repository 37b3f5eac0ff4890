ALTER TABLE "orders" ADD COLUMN "from_business_account" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "business_hold" boolean DEFAULT false NOT NULL;