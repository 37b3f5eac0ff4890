ALTER TABLE "chain_outputs" DROP CONSTRAINT "chain_outputs_status";--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_purpose";--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_for_one_thing";--> statement-breakpoint
DROP INDEX "chain_outputs_unspent";--> statement-breakpoint
ALTER TABLE "chain_outputs" ADD COLUMN "spent_height" integer;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "chain_output" text;--> statement-breakpoint
CREATE INDEX "chain_outputs_unspent" ON "chain_outputs" USING btree ("currency") WHERE "chain_outputs"."spent_by" is null and "chain_outputs"."status" in ('credited', 'change', 'unmatched', 'assigned', 'returned');--> statement-breakpoint
ALTER TABLE "chain_outputs" ADD CONSTRAINT "chain_outputs_status" CHECK ("chain_outputs"."status" in ('confirming', 'credited', 'change', 'unmatched', 'assigned', 'returned', 'orphaned', 'reversed'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_purpose" CHECK ("payouts"."purpose" in ('send', 'order_delivery', 'order_refund', 'payment_refund', 'chain_return'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_for_one_thing" CHECK (num_nonnulls("payouts"."send_id", "payouts"."order_id", "payouts"."bank_payment_id", "payouts"."chain_output") = 1);