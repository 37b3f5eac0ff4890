CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rail" text NOT NULL,
	"purpose" text NOT NULL,
	"send_id" uuid,
	"order_id" uuid,
	"currency" text NOT NULL,
	"destination" text,
	"reference" text,
	"amount" bigint NOT NULL,
	"network_fee" bigint DEFAULT 0 NOT NULL,
	"source_account_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"txid" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payouts_status" CHECK ("payouts"."status" in ('pending', 'submitting', 'submitted', 'completed', 'failed')),
	CONSTRAINT "payouts_rail" CHECK ("payouts"."rail" in ('chain', 'bank')),
	CONSTRAINT "payouts_purpose" CHECK ("payouts"."purpose" in ('send', 'order_delivery', 'order_refund')),
	CONSTRAINT "payouts_for_one_thing" CHECK (("payouts"."send_id" is null) <> ("payouts"."order_id" is null)),
	CONSTRAINT "payouts_amounts" CHECK ("payouts"."amount" > 0 and "payouts"."network_fee" >= 0),
	CONSTRAINT "payouts_completed_has_txid" CHECK ("payouts"."status" <> 'completed' or "payouts"."txid" is not null)
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_channel";--> statement-breakpoint
DROP INDEX "orders_processing";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wallet_sends" ADD COLUMN "txid" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_send_id_wallet_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."wallet_sends"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_source_account_fk" FOREIGN KEY ("source_account_id","currency") REFERENCES "public"."ledger_accounts"("id","currency") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_idempotency_key" ON "payouts" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "payouts_send" ON "payouts" USING btree ("send_id") WHERE "payouts"."send_id" is not null;--> statement-breakpoint
CREATE INDEX "payouts_order" ON "payouts" USING btree ("order_id") WHERE "payouts"."order_id" is not null;--> statement-breakpoint
CREATE INDEX "payouts_open" ON "payouts" USING btree ("status","created_at") WHERE "payouts"."status" in ('pending', 'submitting', 'submitted');--> statement-breakpoint
CREATE INDEX "orders_processing" ON "orders" USING btree ("funded_at") WHERE "orders"."status" = 'processing' and "orders"."settled_at" is null;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_channel" CHECK ("outbox"."channel" in ('email', 'sms', 'post', 'bank', 'chain'));