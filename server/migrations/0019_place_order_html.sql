-- place_anonymous_order (migration 0016) with the confirmation email's HTML part beside its text
-- (outbox.html, migration 0017): the same one round trip, the same caps and locks, the order and
-- its email both or neither. A new overload with one more argument; the seven-argument version of
-- 0016 stays for a replica of the previous release still running during a rolling deploy (its
-- emails go out as text only) and can be dropped by a later migration.
CREATE FUNCTION "place_anonymous_order"("p_order" jsonb, "p_subject" text, "p_body" text, "p_html" text, "p_keys" text[], "p_since" timestamptz, "p_first_order_cap" bigint, "p_weekly_cap" bigint)
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
  INSERT INTO "outbox" ("channel", "recipient", "subject", "body", "html") VALUES ('email', placed."email", "p_subject", "p_body", "p_html");
  RETURN NEXT placed;
END
$$;
