ALTER TABLE "chain_outputs" ALTER COLUMN "amount" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "faucet_rounds" ALTER COLUMN "reward_amount" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "ledger_accounts" ALTER COLUMN "balance" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "ledger_accounts" ALTER COLUMN "balance" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ALTER COLUMN "amount" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "amount" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "estimated_amount_converted" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "estimated_network_fee" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "amount_received" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "actual_amount_converted" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "actual_network_fee" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "amount" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "network_fee" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "network_fee" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "chain_fee" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "simulated_chain_moves" ALTER COLUMN "amount" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "wallet_sends" ALTER COLUMN "amount" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
ALTER TABLE "wallet_sends" ALTER COLUMN "network_fee" SET DATA TYPE numeric(38, 0);--> statement-breakpoint
-- Ether was kept in gwei (9 decimals); from here on in wei (18). Every stored ETH amount is
-- multiplied by 10^9 in the same migration as the column types change, so no row is ever read
-- at the wrong scale. Ledger transfers are immutable (0002's trigger); this one rewrite is the
-- exception, made with the trigger off inside the migration's transaction.
ALTER TABLE "ledger_transfers" DISABLE TRIGGER "ledger_transfers_no_change";--> statement-breakpoint
UPDATE "ledger_transfers" SET "amount" = "amount" * 1000000000 WHERE "currency" = 'ETH';--> statement-breakpoint
ALTER TABLE "ledger_transfers" ENABLE TRIGGER "ledger_transfers_no_change";--> statement-breakpoint
UPDATE "ledger_accounts" SET "balance" = "balance" * 1000000000 WHERE "currency" = 'ETH';--> statement-breakpoint
UPDATE "chain_outputs" SET "amount" = "amount" * 1000000000 WHERE "currency" = 'ETH';--> statement-breakpoint
UPDATE "simulated_chain_moves" SET "amount" = "amount" * 1000000000 WHERE "currency" = 'ETH';--> statement-breakpoint
UPDATE "wallet_sends" SET "amount" = "amount" * 1000000000, "network_fee" = "network_fee" * 1000000000 WHERE "currency" = 'ETH';--> statement-breakpoint
UPDATE "payouts" SET "amount" = "amount" * 1000000000, "network_fee" = "network_fee" * 1000000000, "chain_fee" = "chain_fee" * 1000000000 WHERE "currency" = 'ETH';--> statement-breakpoint
UPDATE "faucet_rounds" SET "reward_amount" = "reward_amount" * 1000000000 WHERE "reward_currency" = 'ETH';--> statement-breakpoint
UPDATE "orders" SET "amount" = "amount" * 1000000000, "amount_received" = "amount_received" * 1000000000 WHERE "currency_from" = 'ETH';--> statement-breakpoint
UPDATE "orders" SET "estimated_amount_converted" = "estimated_amount_converted" * 1000000000, "estimated_network_fee" = "estimated_network_fee" * 1000000000,
  "actual_amount_converted" = "actual_amount_converted" * 1000000000, "actual_network_fee" = "actual_network_fee" * 1000000000 WHERE "currency_to" = 'ETH';--> statement-breakpoint
-- A published snapshot never changes: each tree keeps the decimals it was published with (its
-- JSON says them), so ether snapshots taken before this migration stay in gwei.
ALTER TABLE "liability_trees" ADD COLUMN "decimals" integer;--> statement-breakpoint
UPDATE "liability_trees" SET "decimals" = substring("tree" from '"decimals":([0-9]+)')::integer;--> statement-breakpoint
ALTER TABLE "liability_trees" ALTER COLUMN "decimals" SET NOT NULL;
