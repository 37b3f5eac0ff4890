CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"short_reference" text NOT NULL,
	"type" text NOT NULL,
	"currency_from" text NOT NULL,
	"currency_to" text NOT NULL,
	"amount" text NOT NULL,
	"amount_eur" text NOT NULL,
	"email" text NOT NULL,
	"account_id" uuid,
	"address" text,
	"payment_method" text,
	"send_to_my_wallet" boolean DEFAULT false NOT NULL,
	"use_my_wallet" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"estimated_rate" text NOT NULL,
	"estimated_amount_converted" text NOT NULL,
	"fee" text NOT NULL,
	"estimated_network_fee" text NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_type" CHECK ("orders"."type" in ('buy', 'sell', 'swap'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_reference" ON "orders" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_key" ON "orders" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_email" ON "orders" USING btree ("email");--> statement-breakpoint
CREATE INDEX "orders_account" ON "orders" USING btree ("account_id");