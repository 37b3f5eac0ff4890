ALTER TABLE "payouts" DROP CONSTRAINT "payouts_status";--> statement-breakpoint
ALTER TABLE "wallet_sends" DROP CONSTRAINT "wallet_sends_status";--> statement-breakpoint
DROP INDEX "payouts_open";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payout_awaiting_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "eur_value" bigint;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "approval_reason" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "triggered_by" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "approved_by" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "rejected_by" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "rejected_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payouts_open" ON "payouts" USING btree ("status","created_at") WHERE "payouts"."status" in ('awaiting_approval', 'pending', 'submitting', 'submitted');--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_approval_reason" CHECK ("payouts"."approval_reason" in ('above_limit', 'new_account', 'frozen_account'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_awaiting_has_reason" CHECK ("payouts"."status" <> 'awaiting_approval' or "payouts"."approval_reason" is not null);--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_four_eyes" CHECK (("payouts"."reviewed_by" is null or "payouts"."triggered_by" is null or "payouts"."reviewed_by" <> "payouts"."triggered_by") and ("payouts"."approved_by" is null or ("payouts"."reviewed_by" is not null and "payouts"."approved_by" <> "payouts"."reviewed_by" and ("payouts"."triggered_by" is null or "payouts"."approved_by" <> "payouts"."triggered_by"))));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status" CHECK ("payouts"."status" in ('awaiting_approval', 'pending', 'submitting', 'submitted', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "wallet_sends" ADD CONSTRAINT "wallet_sends_status" CHECK ("wallet_sends"."status" in ('awaiting_code', 'awaiting_approval', 'processing', 'completed', 'failed'));