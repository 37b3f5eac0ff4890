DROP INDEX "orders_address";--> statement-breakpoint

-- One use of a limit (server/src/limits.ts), its one definition: takeLimit calls it, and
-- place_anonymous_order takes the email's use in the transaction that places the order. The
-- count of a key, or null when its window is used up (the row's lock orders two replicas at once).
CREATE FUNCTION "take_limit"("p_key" text, "p_max" integer, "p_window" interval, "p_at" timestamptz) RETURNS integer
LANGUAGE sql VOLATILE AS $$
  INSERT INTO "limit_counters" AS c ("key", "count", "window_ends_at") VALUES ("p_key", 1, "p_at" + "p_window")
  ON CONFLICT ("key") DO UPDATE SET
    "count" = CASE WHEN c."window_ends_at" <= "p_at" THEN 1 ELSE c."count" + 1 END,
    "window_ends_at" = CASE WHEN c."window_ends_at" <= "p_at" THEN excluded."window_ends_at" ELSE c."window_ends_at" END
  WHERE c."window_ends_at" <= "p_at" OR c."count" < "p_max"
  RETURNING c."count"
$$;--> statement-breakpoint

-- The caps of an anonymous order as the exchange gate judges them (domain/gates.ts
-- exchangeRefusal: the first-order cap for a new customer, then the week), the error code or null.
-- server/test/gate-caps.test.ts proves over random inputs that both answer alike.
CREATE FUNCTION "anonymous_cap_refusal"("p_amount_eur" bigint, "p_new_customer" boolean, "p_weekly_eur" bigint, "p_first_order_cap" bigint, "p_weekly_cap" bigint) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN "p_new_customer" AND "p_amount_eur" > "p_first_order_cap" THEN 'first_order_limit'
    WHEN "p_weekly_eur" > "p_weekly_cap" THEN 'weekly_limit_login_required'
  END
$$;--> statement-breakpoint

DROP FUNCTION "place_anonymous_order"(jsonb, text, text, text, text[], timestamptz, bigint, bigint);--> statement-breakpoint

-- place_anonymous_order of 0030, with the email's placement limit taken in the same transaction
-- (p_limit_key null: none): one round trip for an anonymous order. A used-up limit raises MU002
-- with the milliseconds to wait; a refused order takes no use (the exception rolls it back), nor
-- does a replayed Idempotency-Key.
CREATE FUNCTION "place_anonymous_order"("p_order" jsonb, "p_subject" text, "p_body" text, "p_html" text, "p_keys" text[], "p_since" timestamptz, "p_first_order_cap" bigint, "p_weekly_cap" bigint,
  "p_limit_key" text, "p_limit_max" integer, "p_limit_window" interval)
RETURNS SETOF "orders" LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  o "orders" := jsonb_populate_record(NULL::"orders", "p_order");
  placed "orders";
  refusal text;
  at timestamptz := clock_timestamp();
  wait_ms float8;
BEGIN
  IF o."idempotency_key" IS NOT NULL THEN
    RETURN QUERY SELECT * FROM "orders" WHERE "idempotency_key" = o."idempotency_key";
    IF FOUND THEN RETURN; END IF;
  END IF;
  IF "p_limit_key" IS NOT NULL AND ("p_limit_max" < 1 OR "take_limit"("p_limit_key", "p_limit_max", "p_limit_window", at) IS NULL) THEN
    SELECT greatest(extract(epoch FROM ("window_ends_at" - at)) * 1000, 0) INTO wait_ms FROM "limit_counters" WHERE "key" = "p_limit_key";
    RAISE EXCEPTION USING ERRCODE = 'MU002', MESSAGE = 'try_again_soon', DETAIL = coalesce(wait_ms, extract(epoch FROM "p_limit_window") * 1000)::text;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended("key", 0)) FROM (SELECT DISTINCT unnest("p_keys") AS "key" ORDER BY 1) AS "wanted";
  o."email_key" := coalesce(o."email_key", lower(trim(o."email")));
  refusal := "anonymous_cap_refusal"(o."amount_eur",
    -- whether the customer is new matters only above the first-order cap: asked only then
    o."amount_eur" > "p_first_order_cap" AND NOT "customer_has_completed_order"(NULL, o."email_key", NULL),
    "customer_orders_eur"(NULL, o."email_key", o."payout_key", NULL, "p_since", true, NULL) + o."amount_eur",
    "p_first_order_cap", "p_weekly_cap");
  IF refusal IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'MU001', MESSAGE = refusal;
  END IF;
  INSERT INTO "orders" ("reference", "short_reference", "type", "currency_from", "currency_to", "amount", "amount_eur", "email", "email_key", "address", "payout_key",
    "payment_method", "estimated_rate", "estimated_amount_converted", "fee", "estimated_network_fee", "idempotency_key", "language", "receiving_address")
  VALUES (o."reference", o."short_reference", o."type", o."currency_from", o."currency_to", o."amount", o."amount_eur", o."email", o."email_key", o."address", o."payout_key",
    o."payment_method", o."estimated_rate", o."estimated_amount_converted", o."fee", o."estimated_network_fee", o."idempotency_key", o."language", o."receiving_address")
  ON CONFLICT DO NOTHING RETURNING * INTO placed;
  IF placed."id" IS NULL THEN
    -- The same Idempotency-Key placed at the same instant by another request: a replay, which counts for nothing.
    IF "p_limit_key" IS NOT NULL THEN
      UPDATE "limit_counters" SET "count" = greatest("count" - 1, 0) WHERE "key" = "p_limit_key" AND "window_ends_at" > at;
    END IF;
    RETURN QUERY SELECT * FROM "orders" WHERE "idempotency_key" = o."idempotency_key";
    RETURN;
  END IF;
  INSERT INTO "outbox" ("channel", "recipient", "subject", "body", "html") VALUES ('email', placed."email", "p_subject", "p_body", "p_html");
  RETURN NEXT placed;
END
$$;
