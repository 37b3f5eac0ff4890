CREATE TABLE "chain_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"currency" text NOT NULL,
	"kind" text NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"currency" text NOT NULL,
	"height" integer NOT NULL,
	"hash" text NOT NULL,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_blocks_currency_height_pk" PRIMARY KEY("currency","height")
);
--> statement-breakpoint
CREATE TABLE "chain_outputs" (
	"currency" text NOT NULL,
	"txid" text NOT NULL,
	"vout" integer NOT NULL,
	"address" text NOT NULL,
	"amount" bigint NOT NULL,
	"height" integer NOT NULL,
	"block_hash" text NOT NULL,
	"status" text NOT NULL,
	"unmatched_reason" text,
	"credited_to" text,
	"spent_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_outputs_currency_txid_vout_pk" PRIMARY KEY("currency","txid","vout"),
	CONSTRAINT "chain_outputs_status" CHECK ("chain_outputs"."status" in ('confirming', 'credited', 'change', 'unmatched', 'assigned', 'orphaned', 'reversed')),
	CONSTRAINT "chain_outputs_unmatched_reason" CHECK ("chain_outputs"."unmatched_reason" in ('dust', 'not_expected')),
	CONSTRAINT "chain_outputs_amount" CHECK ("chain_outputs"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "house_addresses" (
	"address" text PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"branch" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "house_addresses_branch" CHECK ("house_addresses"."branch" in ('users', 'orders', 'change'))
);
--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_status";--> statement-breakpoint
DROP INDEX "payouts_open";--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "txids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "chain_fee" bigint;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "confirmed_height" integer;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "instruction_mac" text;--> statement-breakpoint
CREATE INDEX "chain_outputs_address" ON "chain_outputs" USING btree ("address");--> statement-breakpoint
CREATE INDEX "chain_outputs_open" ON "chain_outputs" USING btree ("currency","status") WHERE "chain_outputs"."status" in ('confirming', 'unmatched');--> statement-breakpoint
CREATE INDEX "chain_outputs_unspent" ON "chain_outputs" USING btree ("currency") WHERE "chain_outputs"."spent_by" is null and "chain_outputs"."status" in ('credited', 'change', 'unmatched', 'assigned');--> statement-breakpoint
CREATE UNIQUE INDEX "house_addresses_path" ON "house_addresses" USING btree ("currency","branch","derivation_index");--> statement-breakpoint
CREATE INDEX "payouts_open" ON "payouts" USING btree ("status","created_at") WHERE "payouts"."status" in ('awaiting_approval', 'pending', 'submitting', 'submitted', 'broadcast');--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status" CHECK ("payouts"."status" in ('awaiting_approval', 'pending', 'submitting', 'submitted', 'broadcast', 'completed', 'failed'));--> statement-breakpoint
-- Every reception address handed out before this migration is a house address of the users' branch.
-- (Orders' receiving addresses kept no index before; nothing watched a real chain before 0031, so
-- none of them expects coins the watcher would have to find.)
INSERT INTO "house_addresses" ("address", "currency", "branch", "derivation_index", "created_at")
SELECT "address", "currency", 'users', "derivation_index", "created_at" FROM "reception_addresses"
ON CONFLICT DO NOTHING;
