-- One gate where value is exchanged or leaves (issue 29).
--
-- Customers are linked by keys kept apart from the addresses messages go to: the email's link key
-- (domain/customer-key.ts: NFKC, case folded, confusables to their skeleton, +tag and Gmail dots
-- removed), the payout destination's owner (an XRP account whatever its tag, an ETH address in one
-- case) and the payer's IBAN once a bank payment names it. Rows placed before this migration get
-- the keys SQL can compute (lower case; the owner of XRP and ETH destinations); the window of the
-- weekly volume is seven days, so they stop mattering within a week.
ALTER TABLE "orders" ADD COLUMN "email_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payout_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payer_key" text;--> statement-breakpoint
-- A deposit the exchange gate did not convert is kept in euros: why (an error code the user reads).
ALTER TABLE "orders" ADD COLUMN "conversion_refusal" text;--> statement-breakpoint
-- An anonymous order whose payer passed the weekly cap waits for an operator (funded, not converted).
ALTER TABLE "orders" ADD COLUMN "review_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "review_released_by" text;--> statement-breakpoint
-- An order paid from the wallet to a destination outside it waits for the code emailed to the owner.
ALTER TABLE "orders" ADD COLUMN "code_hash" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "code_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "orders" SET "email_key" = lower(trim("email")),
  "payout_key" = CASE WHEN "address" IS NULL THEN NULL WHEN "currency_to" = 'XRP' THEN split_part("address", ':', 1) WHEN "currency_to" = 'ETH' THEN lower("address") ELSE "address" END;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "email_key" SET NOT NULL;--> statement-breakpoint
-- A replica of the previous release, still running during a rolling deploy, writes orders without
-- a link key: it gets the key SQL can compute. A later migration can drop this with the replica gone.
CREATE FUNCTION "orders_email_key_default"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."email_key" IS NULL THEN NEW."email_key" := lower(trim(NEW."email")); END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_email_key_default" BEFORE INSERT ON "orders" FOR EACH ROW WHEN (NEW."email_key" IS NULL) EXECUTE FUNCTION "orders_email_key_default"();--> statement-breakpoint
CREATE INDEX "orders_email_key" ON "orders" USING btree ("email_key");--> statement-breakpoint
CREATE INDEX "orders_payout_key" ON "orders" USING btree ("payout_key") WHERE "payout_key" is not null;--> statement-breakpoint
CREATE INDEX "orders_payer_key" ON "orders" USING btree ("payer_key") WHERE "payer_key" is not null;--> statement-breakpoint
DROP INDEX "orders_processing";--> statement-breakpoint
CREATE INDEX "orders_processing" ON "orders" USING btree ("funded_at") WHERE "status" = 'processing' and "settled_at" is null and "review_hold" = false;--> statement-breakpoint

-- The seven-argument placement of 0016 reads the old volume function; no replica runs it any more.
DROP FUNCTION "place_anonymous_order"(jsonb, text, text, text[], timestamptz, bigint, bigint);--> statement-breakpoint
DROP FUNCTION "customer_orders_eur"(uuid, text, text, timestamptz);--> statement-breakpoint
DROP FUNCTION "customer_has_completed_order"(uuid, text, uuid);--> statement-breakpoint

-- EUR cents a customer exchanged in the window (spec section 6), linked by account, email key,
-- payout owner or payer IBAN: what actually moved, and not failed — an order paid from the wallet
-- from the moment the wallet paid it (a send, whatever happens next), any other from the moment it
-- was converted (settled). A deposit kept in euros is money arriving, not an exchange. p_except: an
-- order being judged, which the caller adds itself. p_include_open also counts orders placed in
-- the window and not converted yet: only the anonymous placement does, so that orders placed
-- unpaid in someone's name never count against that person's account.
CREATE FUNCTION "customer_orders_eur"("p_account" uuid, "p_email_key" text, "p_payout_key" text, "p_payer_key" text, "p_since" timestamptz, "p_include_open" boolean, "p_except" uuid) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum("amount_eur"), 0)::bigint FROM "orders"
  WHERE "status" <> 'completed_failure' AND NOT ("type" = 'deposit' AND "currency_to" = 'EUR')
    AND ("p_except" IS NULL OR "id" <> "p_except")
    AND (CASE WHEN "use_my_wallet" THEN "funded_at" ELSE "settled_at" END >= "p_since"
      OR ("p_include_open" AND "settled_at" IS NULL AND "created_at" >= "p_since"))
    AND ("account_id" = "p_account" OR "email_key" = "p_email_key" OR "payout_key" = "p_payout_key" OR "payer_key" = "p_payer_key")
$$;--> statement-breakpoint

-- The previous release's count, for its replicas during a rolling deploy (a later migration drops it).
CREATE FUNCTION "customer_orders_eur"("p_account" uuid, "p_email" text, "p_address" text, "p_since" timestamptz) RETURNS bigint
LANGUAGE sql STABLE AS $$ SELECT "customer_orders_eur"("p_account", "p_email", "p_address", NULL, "p_since", true, NULL) $$;--> statement-breakpoint

-- Whether one of the customer's exchanges (by account or email key), other than p_except,
-- completed successfully. A deposit kept in euros is no exchange: it does not end the first-order cap.
CREATE FUNCTION "customer_has_completed_order"("p_account" uuid, "p_email_key" text, "p_except" uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "orders"
    WHERE "status" = 'completed_success' AND NOT ("type" = 'deposit' AND "currency_to" = 'EUR')
      AND ("email_key" = "p_email_key" OR "account_id" = "p_account")
      AND ("p_except" IS NULL OR "id" <> "p_except"))
$$;--> statement-breakpoint

-- place_anonymous_order of 0019 with the link keys: the caps count by email key and payout owner,
-- and open orders count against an anonymous placement.
CREATE OR REPLACE FUNCTION "place_anonymous_order"("p_order" jsonb, "p_subject" text, "p_body" text, "p_html" text, "p_keys" text[], "p_since" timestamptz, "p_first_order_cap" bigint, "p_weekly_cap" bigint)
RETURNS SETOF "orders" LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  o "orders" := jsonb_populate_record(NULL::"orders", "p_order");
  placed "orders";
BEGIN
  IF o."idempotency_key" IS NOT NULL THEN
    RETURN QUERY SELECT * FROM "orders" WHERE "idempotency_key" = o."idempotency_key";
    IF FOUND THEN RETURN; END IF;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended("key", 0)) FROM (SELECT DISTINCT unnest("p_keys") AS "key" ORDER BY 1) AS "wanted";
  o."email_key" := coalesce(o."email_key", lower(trim(o."email")));
  IF o."amount_eur" > "p_first_order_cap" AND NOT "customer_has_completed_order"(NULL, o."email_key", NULL) THEN
    RAISE EXCEPTION USING ERRCODE = 'MU001', MESSAGE = 'first_order_limit';
  END IF;
  IF "customer_orders_eur"(NULL, o."email_key", o."payout_key", NULL, "p_since", true, NULL) + o."amount_eur" > "p_weekly_cap" THEN
    RAISE EXCEPTION USING ERRCODE = 'MU001', MESSAGE = 'weekly_limit_login_required';
  END IF;
  INSERT INTO "orders" ("reference", "short_reference", "type", "currency_from", "currency_to", "amount", "amount_eur", "email", "email_key", "address", "payout_key",
    "payment_method", "estimated_rate", "estimated_amount_converted", "fee", "estimated_network_fee", "idempotency_key", "language", "receiving_address")
  VALUES (o."reference", o."short_reference", o."type", o."currency_from", o."currency_to", o."amount", o."amount_eur", o."email", coalesce(o."email_key", lower(trim(o."email"))), o."address", o."payout_key",
    o."payment_method", o."estimated_rate", o."estimated_amount_converted", o."fee", o."estimated_network_fee", o."idempotency_key", o."language", o."receiving_address")
  ON CONFLICT DO NOTHING RETURNING * INTO placed;
  IF placed."id" IS NULL THEN
    RETURN QUERY SELECT * FROM "orders" WHERE "idempotency_key" = o."idempotency_key";
    RETURN;
  END IF;
  INSERT INTO "outbox" ("channel", "recipient", "subject", "body", "html") VALUES ('email', placed."email", "p_subject", "p_body", "p_html");
  RETURN NEXT placed;
END
$$;
