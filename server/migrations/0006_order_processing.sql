ALTER TABLE "orders" DROP CONSTRAINT "orders_type";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "receiving_address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_received" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sender_address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "actual_rate" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "actual_amount_converted" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "actual_network_fee" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "actual_fee" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payout_txid" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "funded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_receiving_address" ON "orders" USING btree ("receiving_address");--> statement-breakpoint
CREATE INDEX "orders_status" ON "orders" USING btree ("status","funded_at");--> statement-breakpoint
CREATE INDEX "orders_short_reference" ON "orders" USING btree ("short_reference");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status" CHECK ("orders"."status" in ('new', 'processing', 'completed_success', 'completed_failure'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund" CHECK ("orders"."refund" is null or "orders"."refund" in ('bank', 'wallet', 'sender'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_type" CHECK ("orders"."type" in ('buy', 'sell', 'swap', 'deposit'));