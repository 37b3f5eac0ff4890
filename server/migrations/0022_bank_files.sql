CREATE TABLE "bank_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" text NOT NULL,
	"payout_count" integer NOT NULL,
	"total" bigint NOT NULL,
	"xml" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_exports_not_empty" CHECK ("bank_exports"."payout_count" > 0 and "bank_exports"."total" > 0)
);
--> statement-breakpoint
CREATE TABLE "bank_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_ref" text NOT NULL,
	"statement_id" text,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"payer_name" text,
	"payer_iban" text,
	"remittance" text NOT NULL,
	"booking_date" date,
	"status" text NOT NULL,
	"unmatched_reason" text,
	"order_id" uuid,
	"resolution" text,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_payments_status" CHECK ("bank_payments"."status" in ('matched', 'open', 'assigned', 'refunded')),
	CONSTRAINT "bank_payments_amount" CHECK ("bank_payments"."amount" > 0),
	CONSTRAINT "bank_payments_order_when_paid" CHECK (("bank_payments"."status" in ('matched', 'assigned')) = ("bank_payments"."order_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_purpose";--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_for_one_thing";--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "bank_payment_id" uuid;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "bank_export_id" uuid;--> statement-breakpoint
ALTER TABLE "bank_payments" ADD CONSTRAINT "bank_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_exports_message_id" ON "bank_exports" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_payments_entry_ref" ON "bank_payments" USING btree ("entry_ref");--> statement-breakpoint
CREATE INDEX "bank_payments_open" ON "bank_payments" USING btree ("imported_at") WHERE "bank_payments"."status" = 'open';--> statement-breakpoint
CREATE INDEX "bank_payments_order" ON "bank_payments" USING btree ("order_id") WHERE "bank_payments"."order_id" is not null;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_bank_payment_id_bank_payments_id_fk" FOREIGN KEY ("bank_payment_id") REFERENCES "public"."bank_payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_bank_export_id_bank_exports_id_fk" FOREIGN KEY ("bank_export_id") REFERENCES "public"."bank_exports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_bank_export" ON "payouts" USING btree ("bank_export_id") WHERE "payouts"."bank_export_id" is not null;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_purpose" CHECK ("payouts"."purpose" in ('send', 'order_delivery', 'order_refund', 'payment_refund'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_for_one_thing" CHECK (num_nonnulls("payouts"."send_id", "payouts"."order_id", "payouts"."bank_payment_id") = 1);