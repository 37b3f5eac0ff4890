-- Who a customer is, for their caps (spec sections 5 and 6), stated once and used both by the
-- services (through the repositories) and by place_anonymous_order below. SQL rather than PL/pgSQL
-- functions on purpose: planned at each call with the customer's keys known, a missing key (an
-- anonymous customer has no account) drops out of the OR; PL/pgSQL's cached generic plan keeps
-- it and placed orders 40 % slower (bench:orders).

-- EUR cents of the customer's orders placed since then (by account, email, or payout address or
-- IBAN), except those that failed: nothing was left with Muntly or it came back.
CREATE FUNCTION "customer_orders_eur"("p_account" uuid, "p_email" text, "p_address" text, "p_since" timestamptz) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum("amount_eur"), 0)::bigint FROM "orders"
  WHERE "created_at" >= "p_since" AND "status" <> 'completed_failure'
    AND ("account_id" = "p_account" OR "email" = "p_email" OR "address" = "p_address")
$$;--> statement-breakpoint

-- Whether one of the customer's orders (by email or account), other than p_except, completed successfully.
CREATE FUNCTION "customer_has_completed_order"("p_account" uuid, "p_email" text, "p_except" uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "orders"
    WHERE "status" = 'completed_success' AND ("email" = "p_email" OR "account_id" = "p_account")
      AND ("p_except" IS NULL OR "id" <> "p_except"))
$$;--> statement-breakpoint

-- An anonymous order, placed in one round trip (the placement benchmark's path, and most orders):
-- the order of this Idempotency-Key if there is one; otherwise, under the customer's volume locks
-- (the same keys the services lock), the first-order cap and the anonymous weekly cap, then the
-- order and its confirmation email, both or neither. The caps arrive as arguments from domain/;
-- a refusal raises SQLSTATE MU001 with the error code as its message. Each statement of a
-- volatile function sees what committed before it ran, so the sums read after the locks see
-- every placement that held them before.
CREATE FUNCTION "place_anonymous_order"("p_order" jsonb, "p_subject" text, "p_body" text, "p_keys" text[], "p_since" timestamptz, "p_first_order_cap" bigint, "p_weekly_cap" bigint)
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
  IF o."amount_eur" > "p_first_order_cap" AND NOT "customer_has_completed_order"(NULL, o."email", NULL) THEN
    RAISE EXCEPTION USING ERRCODE = 'MU001', MESSAGE = 'first_order_limit';
  END IF;
  IF "customer_orders_eur"(NULL, o."email", o."address", "p_since") + o."amount_eur" > "p_weekly_cap" THEN
    RAISE EXCEPTION USING ERRCODE = 'MU001', MESSAGE = 'weekly_limit_login_required';
  END IF;
  INSERT INTO "orders" ("reference", "short_reference", "type", "currency_from", "currency_to", "amount", "amount_eur", "email", "address",
    "payment_method", "estimated_rate", "estimated_amount_converted", "fee", "estimated_network_fee", "idempotency_key", "language", "receiving_address")
  VALUES (o."reference", o."short_reference", o."type", o."currency_from", o."currency_to", o."amount", o."amount_eur", o."email", o."address",
    o."payment_method", o."estimated_rate", o."estimated_amount_converted", o."fee", o."estimated_network_fee", o."idempotency_key", o."language", o."receiving_address")
  ON CONFLICT DO NOTHING RETURNING * INTO placed;
  IF placed."id" IS NULL THEN
    -- The same Idempotency-Key placed the order in another request since the first look.
    RETURN QUERY SELECT * FROM "orders" WHERE "idempotency_key" = o."idempotency_key";
    RETURN;
  END IF;
  INSERT INTO "outbox" ("channel", "recipient", "subject", "body") VALUES ('email', placed."email", "p_subject", "p_body");
  RETURN NEXT placed;
END
$$;
