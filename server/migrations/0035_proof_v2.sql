CREATE TABLE "liability_control" (
	"snapshot_id" integer NOT NULL,
	"currency" text NOT NULL,
	"address" text NOT NULL,
	"scheme" text NOT NULL,
	"message" text NOT NULL,
	"signature" text NOT NULL,
	"public_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "liability_control_snapshot_id_currency_address_pk" PRIMARY KEY("snapshot_id","currency","address")
);
--> statement-breakpoint
ALTER TABLE "liability_trees" ALTER COLUMN "tree" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "faucet_entries" ADD COLUMN "salt" text;--> statement-breakpoint
ALTER TABLE "liability_snapshots" ADD COLUMN "format" text DEFAULT 'muntly-liabilities-1' NOT NULL;--> statement-breakpoint
ALTER TABLE "liability_trees" ADD COLUMN "leaves" "bytea";--> statement-breakpoint
ALTER TABLE "liability_trees" ADD COLUMN "directory" "bytea";--> statement-breakpoint
ALTER TABLE "liability_trees" ADD COLUMN "padding_seed" "bytea";--> statement-breakpoint
-- As 0027 did for the levels: uncompressed, so a path reads only the pages of its block and steps.
ALTER TABLE "liability_trees" ALTER COLUMN "leaves" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "liability_trees" ALTER COLUMN "directory" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "liability_control" ADD CONSTRAINT "liability_control_snapshot_id_liability_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."liability_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Format 1 published every leaf amount and every deposit address with its balance: an outsider
-- could tie addresses to customers' leaves (issue 32). Its trees, paths and addresses are withdrawn;
-- each snapshot keeps its roots and totals (and its audit row), so what was stated stays on record.
UPDATE "liability_trees" SET "tree" = NULL, "nodes" = '\x'::bytea
  WHERE "snapshot_id" IN (SELECT "id" FROM "liability_snapshots" WHERE "format" = 'muntly-liabilities-1');--> statement-breakpoint
DELETE FROM "liability_accounts"
  WHERE "snapshot_id" IN (SELECT "id" FROM "liability_snapshots" WHERE "format" = 'muntly-liabilities-1');--> statement-breakpoint
UPDATE "liability_snapshots" SET "reserves" = jsonb_build_object(
    'source', "reserves"->'source',
    'withdrawn', true,
    'currencies', coalesce((SELECT jsonb_agg(jsonb_build_object('currency', c->'currency', 'held', c->'held')) FROM jsonb_array_elements("reserves"->'currencies') c), '[]'::jsonb))
  WHERE "format" = 'muntly-liabilities-1';
