CREATE TABLE "payout_returns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payout_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"bank_payment_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"amount_returned" bigint NOT NULL,
	"reason_code" text,
	"reason_info" text,
	"replacement_payout_id" uuid,
	"holder_name" text,
	"link_nonce" text,
	"link_expires_at" timestamp with time zone,
	"language" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_returns_amounts" CHECK ("payout_returns"."amount_returned" > 0 and "payout_returns"."amount_returned" <= "payout_returns"."amount")
);
--> statement-breakpoint
ALTER TABLE "bank_payments" DROP CONSTRAINT "bank_payments_status";--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_status";--> statement-breakpoint
ALTER TABLE "bank_payments" ADD COLUMN "is_return" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_payments" ADD COLUMN "return_reason" text;--> statement-breakpoint
ALTER TABLE "bank_payments" ADD COLUMN "return_info" text;--> statement-breakpoint
ALTER TABLE "payout_returns" ADD CONSTRAINT "payout_returns_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_returns" ADD CONSTRAINT "payout_returns_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_returns" ADD CONSTRAINT "payout_returns_bank_payment_id_bank_payments_id_fk" FOREIGN KEY ("bank_payment_id") REFERENCES "public"."bank_payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_returns" ADD CONSTRAINT "payout_returns_replacement_payout_id_payouts_id_fk" FOREIGN KEY ("replacement_payout_id") REFERENCES "public"."payouts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_returns_payout" ON "payout_returns" USING btree ("payout_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_returns_bank_payment" ON "payout_returns" USING btree ("bank_payment_id");--> statement-breakpoint
CREATE INDEX "payout_returns_order" ON "payout_returns" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "bank_payments" ADD CONSTRAINT "bank_payments_status" CHECK ("bank_payments"."status" in ('matched', 'open', 'assigned', 'refunded', 'returned'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status" CHECK ("payouts"."status" in ('awaiting_approval', 'pending', 'submitting', 'submitted', 'broadcast', 'completed', 'failed', 'returned'));