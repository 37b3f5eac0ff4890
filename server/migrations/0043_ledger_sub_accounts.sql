DROP INDEX "ledger_accounts_owner_currency";--> statement-breakpoint
DROP INDEX "ledger_accounts_system_currency";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "shard" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_parent_fk" FOREIGN KEY ("parent_id","currency") REFERENCES "public"."ledger_accounts"("id","currency") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_parent_shard" ON "ledger_accounts" USING btree ("parent_id","shard") WHERE "ledger_accounts"."parent_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_owner_currency" ON "ledger_accounts" USING btree ("owner_id","currency") WHERE "ledger_accounts"."parent_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_system_currency" ON "ledger_accounts" USING btree ("system_code","currency") WHERE "ledger_accounts"."parent_id" is null;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_shard" CHECK (("ledger_accounts"."parent_id" is null) = ("ledger_accounts"."shard" = 0));--> statement-breakpoint

-- Moves p_delta (negative: a debit) into the account's balance (issue 36: no single hot row).
-- A credit, or any move of a system account (no sign rule), books on the account's own row when
-- no other transaction holds it, else on a sub-account nobody holds (FOR NO KEY UPDATE SKIP LOCKED,
-- which the transfers' foreign keys' KEY SHARE locks do not block), creating one up to 16, and
-- waits only when all are held. A user account's debit takes from its own row: when that alone does
-- not cover it, the sub-accounts are gathered into it first; the check constraint
-- ledger_accounts_user_not_negative refuses what the whole account does not cover.
CREATE FUNCTION "ledger_move"("p_account" uuid, "p_delta" numeric) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  is_user boolean;
  target uuid;
  shards integer;
  gathered numeric;
BEGIN
  SELECT a."owner_id" IS NOT NULL INTO is_user FROM "ledger_accounts" a WHERE a."id" = "p_account" FOR NO KEY UPDATE SKIP LOCKED;
  IF FOUND THEN
    target := "p_account";
  ELSE
    SELECT a."owner_id" IS NOT NULL INTO is_user FROM "ledger_accounts" a WHERE a."id" = "p_account";
    IF NOT FOUND THEN RAISE EXCEPTION 'ledger account % does not exist', "p_account"; END IF;
  END IF;
  IF is_user AND "p_delta" < 0 THEN
    -- The account's row first, then its sub-accounts in order: two debits never hold one each.
    IF target IS NULL THEN
      PERFORM 1 FROM "ledger_accounts" a WHERE a."id" = "p_account" FOR NO KEY UPDATE;
    END IF;
    UPDATE "ledger_accounts" SET "balance" = "balance" + "p_delta" WHERE "id" = "p_account" AND "balance" >= -"p_delta";
    IF FOUND THEN RETURN; END IF;
    WITH "held" AS (SELECT s."id", s."balance" FROM "ledger_accounts" s WHERE s."parent_id" = "p_account" ORDER BY s."shard" FOR NO KEY UPDATE),
      "emptied" AS (UPDATE "ledger_accounts" s SET "balance" = 0 FROM "held" WHERE s."id" = "held"."id" RETURNING "held"."balance")
    SELECT coalesce(sum("balance"), 0) INTO gathered FROM "emptied";
    UPDATE "ledger_accounts" SET "balance" = "balance" + gathered + "p_delta" WHERE "id" = "p_account";
    RETURN;
  END IF;
  IF target IS NULL THEN
    SELECT s."id" INTO target FROM "ledger_accounts" s WHERE s."parent_id" = "p_account" ORDER BY s."shard" LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED;
  END IF;
  IF target IS NULL THEN
    SELECT count(*) INTO shards FROM "ledger_accounts" s WHERE s."parent_id" = "p_account";
    IF shards < 16 THEN
      INSERT INTO "ledger_accounts" ("currency", "owner_id", "system_code", "parent_id", "shard")
        SELECT a."currency", a."owner_id", a."system_code", a."id", shards + 1 FROM "ledger_accounts" a WHERE a."id" = "p_account"
        ON CONFLICT DO NOTHING RETURNING "id" INTO target;
    END IF;
  END IF;
  UPDATE "ledger_accounts" SET "balance" = "balance" + "p_delta" WHERE "id" = coalesce(target, "p_account");
END
$$;--> statement-breakpoint

-- One transfer in one statement: the transfer (its id the idempotency key) and both balances, or,
-- when the id was booked before, that transfer and nothing moved (created false).
CREATE FUNCTION "ledger_transfer"("p_id" text, "p_currency" text, "p_debit" uuid, "p_credit" uuid, "p_amount" numeric, "p_code" text, "p_metadata" jsonb)
RETURNS TABLE ("created" boolean, "o_id" text, "o_currency" text, "o_debit_account_id" uuid, "o_credit_account_id" uuid, "o_amount" text, "o_code" text, "o_metadata" jsonb, "o_created_at" timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  t "ledger_transfers";
BEGIN
  INSERT INTO "ledger_transfers" ("id", "currency", "debit_account_id", "credit_account_id", "amount", "code", "metadata")
    VALUES ("p_id", "p_currency", "p_debit", "p_credit", "p_amount", "p_code", "p_metadata")
    ON CONFLICT DO NOTHING RETURNING * INTO t;
  IF t."id" IS NULL THEN
    RETURN QUERY SELECT false, e."id", e."currency", e."debit_account_id", e."credit_account_id", e."amount"::text, e."code", e."metadata", e."created_at" FROM "ledger_transfers" e WHERE e."id" = "p_id";
    RETURN;
  END IF;
  PERFORM "ledger_move"("p_debit", -"p_amount");
  PERFORM "ledger_move"("p_credit", "p_amount");
  RETURN QUERY SELECT true, t."id", t."currency", t."debit_account_id", t."credit_account_id", t."amount"::text, t."code", t."metadata", t."created_at";
END
$$;
