-- Weekly volume counts what a customer exchanges or sends (spec section 6): a bank deposit kept in
-- euros in one's own wallet is money arriving, neither, so it no longer counts; a deposit converted
-- to crypto on arrival is a buy and still does. Otherwise as in 0016: every order since then except
-- those that failed (nothing stayed with Muntly).
CREATE OR REPLACE FUNCTION "customer_orders_eur"("p_account" uuid, "p_email" text, "p_address" text, "p_since" timestamptz) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum("amount_eur"), 0)::bigint FROM "orders"
  WHERE "created_at" >= "p_since" AND "status" <> 'completed_failure' AND NOT ("type" = 'deposit' AND "currency_to" = 'EUR')
    AND ("account_id" = "p_account" OR "email" = "p_email" OR "address" = "p_address")
$$;
