CREATE TABLE "faucet_seed_chains" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "faucet_seed_chains_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"anchor" text NOT NULL,
	"length" integer NOT NULL,
	"top_seed" text NOT NULL,
	"next_index" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "faucet_seed_chains_length" CHECK ("faucet_seed_chains"."length" > 0),
	CONSTRAINT "faucet_seed_chains_next_index" CHECK ("faucet_seed_chains"."next_index" between 1 and "faucet_seed_chains"."length" + 1)
);
--> statement-breakpoint
CREATE TABLE "liability_accounts" (
	"snapshot_id" integer NOT NULL,
	"account_id" uuid NOT NULL,
	"nonce" text NOT NULL,
	"leaves" jsonb NOT NULL,
	CONSTRAINT "liability_accounts_snapshot_id_account_id_pk" PRIMARY KEY("snapshot_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "liability_snapshots" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "liability_snapshots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"taken_at" timestamp with time zone NOT NULL,
	"slot" bigint,
	"reserves" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "liability_trees" (
	"snapshot_id" integer NOT NULL,
	"currency" text NOT NULL,
	"root_hash" text NOT NULL,
	"total" numeric NOT NULL,
	"leaf_count" integer NOT NULL,
	"tree" text NOT NULL,
	"nodes" "bytea" NOT NULL,
	CONSTRAINT "liability_trees_snapshot_id_currency_pk" PRIMARY KEY("snapshot_id","currency"),
	CONSTRAINT "liability_trees_total_not_negative" CHECK ("liability_trees"."total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "simulated_chain_blocks" (
	"height" integer PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"prev_hash" text NOT NULL,
	"nonce" text NOT NULL,
	"mined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "simulated_chain_moves" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"txid" text NOT NULL,
	"currency" text NOT NULL,
	"address" text NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "faucet_rounds" ADD COLUMN "seed_chain_id" integer;--> statement-breakpoint
ALTER TABLE "faucet_rounds" ADD COLUMN "seed_index" integer;--> statement-breakpoint
ALTER TABLE "faucet_rounds" ADD COLUMN "mix_source" text;--> statement-breakpoint
ALTER TABLE "faucet_rounds" ADD COLUMN "mix_height" integer;--> statement-breakpoint
ALTER TABLE "faucet_rounds" ADD COLUMN "mix_hash" text;--> statement-breakpoint
ALTER TABLE "liability_accounts" ADD CONSTRAINT "liability_accounts_snapshot_id_liability_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."liability_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liability_accounts" ADD CONSTRAINT "liability_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liability_trees" ADD CONSTRAINT "liability_trees_snapshot_id_liability_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."liability_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "liability_accounts_account" ON "liability_accounts" USING btree ("account_id","snapshot_id");--> statement-breakpoint
CREATE UNIQUE INDEX "liability_snapshots_slot" ON "liability_snapshots" USING btree ("slot") WHERE "liability_snapshots"."slot" is not null;--> statement-breakpoint
CREATE INDEX "liability_snapshots_taken_at" ON "liability_snapshots" USING btree ("taken_at");--> statement-breakpoint
CREATE UNIQUE INDEX "simulated_chain_moves_txid_address" ON "simulated_chain_moves" USING btree ("txid","address");--> statement-breakpoint
CREATE INDEX "simulated_chain_moves_address" ON "simulated_chain_moves" USING btree ("currency","address");--> statement-breakpoint
ALTER TABLE "faucet_rounds" ADD CONSTRAINT "faucet_rounds_seed_chain_id_faucet_seed_chains_id_fk" FOREIGN KEY ("seed_chain_id") REFERENCES "public"."faucet_seed_chains"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "faucet_rounds_seed" ON "faucet_rounds" USING btree ("seed_chain_id","seed_index") WHERE "faucet_rounds"."seed_chain_id" is not null;--> statement-breakpoint
ALTER TABLE "faucet_rounds" ADD CONSTRAINT "faucet_rounds_seed_in_chain" CHECK (("faucet_rounds"."seed_chain_id" is null) = ("faucet_rounds"."seed_index" is null));--> statement-breakpoint
ALTER TABLE "liability_trees" ALTER COLUMN "tree" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "liability_trees" ALTER COLUMN "nodes" SET STORAGE EXTERNAL;
