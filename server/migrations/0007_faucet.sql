CREATE TABLE "faucet_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round_id" integer NOT NULL,
	"account_id" uuid NOT NULL,
	"address_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"address" text NOT NULL,
	"ticket" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "faucet_rounds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "faucet_rounds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"state" text NOT NULL,
	"game_over_reason" text,
	"seed" text,
	"seed_hash" text,
	"reward_eur_minor" bigint NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"draws_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"entry_count" integer,
	"entries_hash" text,
	"winner_entry_id" uuid,
	"reward_currency" text,
	"reward_amount" bigint,
	"reward_rate" text,
	"announced_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "faucet_rounds_state" CHECK ("faucet_rounds"."state" in ('new', 'registrations_open', 'registrations_closed', 'winner_announced', 'game_over')),
	CONSTRAINT "faucet_rounds_game_over_reason" CHECK (("faucet_rounds"."state" = 'game_over') = ("faucet_rounds"."game_over_reason" is not null)),
	CONSTRAINT "faucet_rounds_scheduled" CHECK ("faucet_rounds"."state" = 'game_over' or ("faucet_rounds"."seed_hash" is not null and "faucet_rounds"."seed" is not null and "faucet_rounds"."ends_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "faucet_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"budget_eur_minor" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "faucet_state_singleton" CHECK ("faucet_state"."id" = 1),
	CONSTRAINT "faucet_state_budget_not_negative" CHECK ("faucet_state"."budget_eur_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "faucet_entries" ADD CONSTRAINT "faucet_entries_round_id_faucet_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."faucet_rounds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faucet_entries" ADD CONSTRAINT "faucet_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faucet_entries" ADD CONSTRAINT "faucet_entries_address_id_reception_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."reception_addresses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "faucet_entries_round_account" ON "faucet_entries" USING btree ("round_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "faucet_entries_round_ticket" ON "faucet_entries" USING btree ("round_id","ticket");--> statement-breakpoint
CREATE INDEX "faucet_entries_account" ON "faucet_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "faucet_rounds_one_current" ON "faucet_rounds" USING btree ((true)) WHERE finished_at is null;