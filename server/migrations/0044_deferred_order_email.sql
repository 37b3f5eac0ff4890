ALTER TABLE "outbox" ALTER COLUMN "subject" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "params" jsonb;--> statement-breakpoint
CREATE INDEX "outbox_unwritten" ON "outbox" USING btree ("created_at") WHERE "outbox"."body" is null;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_template" CHECK ("outbox"."template" is null or "outbox"."template" in ('orderPlaced'));--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_written" CHECK (("outbox"."subject" is not null and "outbox"."body" is not null) or ("outbox"."template" is not null and "outbox"."params" is not null));--> statement-breakpoint

DROP FUNCTION "place_anonymous_order"(jsonb, text, text, text, text[], timestamptz, bigint, bigint, text, integer, interval);--> statement-breakpoint

-- place_anonymous_order of 0042, with the confirmation email kept as its template and what it is
-- written from (p_mail, a few hundred bytes), not the written email (about ten thousand bytes of
-- text and HTML): notify's outbox writer writes it after the transaction (issue 36).
CREATE FUNCTION "place_anonymous_order"("p_order" jsonb, "p_mail" jsonb, "p_keys" text[], "p_since" timestamptz, "p_first_order_cap" bigint, "p_weekly_cap" bigint,
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
  INSERT INTO "outbox" ("channel", "recipient", "template", "params") VALUES ('email', placed."email", 'orderPlaced', "p_mail");
  RETURN NEXT placed;
END
$$;
