-- Money at rest in one representation (issue 14; hand-written, drizzle-kit generated a bare
-- SET DATA TYPE that PostgreSQL cannot cast). Every amount and fee of an order becomes a bigint in
-- the minor unit of its currency, every rate a numeric, converted in place with exact numeric
-- arithmetic. A value that is not a plain decimal, has more decimals than its currency has, or
-- does not fit a bigint stops the migration — and so the start-up — naming the order and the
-- column: nothing is rounded or written as zero, and the whole migration rolls back.
-- The decimals are domain/currencies.ts's (and EUR's 2) when this was written, copied here
-- because a migration is history and must not change when that file does.
CREATE FUNCTION "orders_0012_minor"("value" text, "currency" text, "reference" text, "what" text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  decimals integer := CASE "currency"
      WHEN 'EUR' THEN 2
      WHEN 'BTC' THEN 8
      WHEN 'ETH' THEN 9
      WHEN 'XRP' THEN 6
      WHEN 'USDT' THEN 6
      WHEN 'BCH' THEN 8
      WHEN 'LTC' THEN 8
      WHEN 'DOGE' THEN 8
      WHEN 'BAT' THEN 9
      WHEN 'ADA' THEN 6
      WHEN 'SOL' THEN 9
      WHEN 'DOT' THEN 9
      WHEN 'USDC' THEN 6
      WHEN 'UNI' THEN 9
      WHEN 'LINK' THEN 9
      WHEN 'ALGO' THEN 6
      WHEN 'WBTC' THEN 8
      WHEN 'MATIC' THEN 9
      WHEN 'XLM' THEN 6
      WHEN 'ATOM' THEN 6
      WHEN 'FIL' THEN 9
      WHEN 'AXS' THEN 9
      WHEN 'BNB' THEN 9
      WHEN 'SHIB' THEN 9
      WHEN 'VET' THEN 9
    END;
  scaled numeric;
BEGIN
  IF "value" IS NULL THEN
    RETURN NULL;
  END IF;
  IF decimals IS NULL THEN
    RAISE EXCEPTION 'migration 0012 refuses order %: orders.% is in the unknown currency %, whose minor unit it cannot know', "reference", "what", quote_literal("currency")
      USING HINT = 'Correct the order by hand (its amounts are still text), then start again.';
  END IF;
  IF "value" !~ '^[0-9]+(\.[0-9]+)?$' THEN
    RAISE EXCEPTION 'migration 0012 refuses order %: orders.% is %, not a decimal amount', "reference", "what", quote_literal("value")
      USING HINT = 'Correct the order by hand (its amounts are still text), then start again.';
  END IF;
  scaled := "value"::numeric * power(10::numeric, decimals);
  IF scaled <> trunc(scaled) THEN
    RAISE EXCEPTION 'migration 0012 refuses order %: orders.% is %, more decimals than % has (%); converting it would lose digits', "reference", "what", quote_literal("value"), "currency", decimals
      USING HINT = 'Correct the order by hand (its amounts are still text), then start again.';
  END IF;
  IF scaled > 9223372036854775807 THEN
    RAISE EXCEPTION 'migration 0012 refuses order %: orders.% is %, too large for a bigint of % minor units', "reference", "what", quote_literal("value"), "currency"
      USING HINT = 'Correct the order by hand (its amounts are still text), then start again.';
  END IF;
  RETURN scaled::bigint;
END
$$;--> statement-breakpoint
-- Rates were written by big.js's toPrecision(10), which uses exponent notation for small ones
-- (2.625000000e-10); numeric reads both forms exactly and keeps every significant digit.
CREATE FUNCTION "orders_0012_rate"("value" text, "reference" text, "what" text) RETURNS numeric LANGUAGE plpgsql AS $$
BEGIN
  IF "value" IS NULL THEN
    RETURN NULL;
  END IF;
  IF "value" !~ '^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$' THEN
    RAISE EXCEPTION 'migration 0012 refuses order %: orders.% is %, not a decimal rate', "reference", "what", quote_literal("value")
      USING HINT = 'Correct the order by hand (its rates are still text), then start again.';
  END IF;
  RETURN "value"::numeric;
END
$$;--> statement-breakpoint
-- One ALTER TABLE, so the table is rewritten once; each USING sees the row as it was.
ALTER TABLE "orders"
  ALTER COLUMN "amount" SET DATA TYPE bigint USING "orders_0012_minor"("amount", "currency_from", "reference", 'amount'),
  ALTER COLUMN "amount_eur" SET DATA TYPE bigint USING "orders_0012_minor"("amount_eur", 'EUR', "reference", 'amount_eur'),
  ALTER COLUMN "estimated_rate" SET DATA TYPE numeric USING "orders_0012_rate"("estimated_rate", "reference", 'estimated_rate'),
  ALTER COLUMN "estimated_amount_converted" SET DATA TYPE bigint USING "orders_0012_minor"("estimated_amount_converted", "currency_to", "reference", 'estimated_amount_converted'),
  ALTER COLUMN "fee" SET DATA TYPE bigint USING "orders_0012_minor"("fee", 'EUR', "reference", 'fee'),
  ALTER COLUMN "estimated_network_fee" SET DATA TYPE bigint USING "orders_0012_minor"("estimated_network_fee", "currency_to", "reference", 'estimated_network_fee'),
  ALTER COLUMN "amount_received" SET DATA TYPE bigint USING "orders_0012_minor"("amount_received", "currency_from", "reference", 'amount_received'),
  ALTER COLUMN "actual_rate" SET DATA TYPE numeric USING "orders_0012_rate"("actual_rate", "reference", 'actual_rate'),
  ALTER COLUMN "actual_amount_converted" SET DATA TYPE bigint USING "orders_0012_minor"("actual_amount_converted", "currency_to", "reference", 'actual_amount_converted'),
  ALTER COLUMN "actual_network_fee" SET DATA TYPE bigint USING "orders_0012_minor"("actual_network_fee", "currency_to", "reference", 'actual_network_fee'),
  ALTER COLUMN "actual_fee" SET DATA TYPE bigint USING "orders_0012_minor"("actual_fee", 'EUR', "reference", 'actual_fee');--> statement-breakpoint
DROP FUNCTION "orders_0012_minor"(text, text, text, text);--> statement-breakpoint
DROP FUNCTION "orders_0012_rate"(text, text, text);
