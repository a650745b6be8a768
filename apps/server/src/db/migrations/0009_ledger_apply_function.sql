-- Every balance change, in one round trip: the account row is locked by the conditional update (a debit
-- never takes the balance below zero), the idempotency key makes a replay change nothing, and the ledger
-- entry is appended with the balance after. Called only by the accounts module (modules/accounts/ledger.ts).
-- Raises 'insufficient_balance' (P0001) when a debit does not fit, 'no_such_user' when the user is gone.
CREATE FUNCTION simcode_apply_ledger_change(
  p_user_id integer,
  p_amount_cents bigint,
  p_kind text,
  p_reference_type text,
  p_reference_id text,
  p_idempotency_key text,
  p_note text
) RETURNS TABLE (applied boolean, balance_after_cents bigint) LANGUAGE plpgsql AS $$
DECLARE
  v_balance bigint;
  v_entry bigint;
BEGIN
  IF p_amount_cents = 0 THEN
    RAISE EXCEPTION 'invalid ledger amount 0';
  END IF;
  -- A replay of a change already made: nothing to do.
  IF EXISTS (SELECT 1 FROM ledger_entries WHERE idempotency_key = p_idempotency_key) THEN
    SELECT u.balance_cents INTO v_balance FROM users u WHERE u.id = p_user_id;
    RETURN QUERY SELECT false, v_balance;
    RETURN;
  END IF;
  UPDATE users SET balance_cents = users.balance_cents + p_amount_cents
    WHERE users.id = p_user_id AND users.balance_cents + p_amount_cents >= 0
    RETURNING users.balance_cents INTO v_balance;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM users WHERE users.id = p_user_id) THEN
      RAISE EXCEPTION 'insufficient_balance';
    END IF;
    RAISE EXCEPTION 'no_such_user';
  END IF;
  -- The same key may have been committed by a change that held the row lock before us: then undo ours.
  INSERT INTO ledger_entries (user_id, kind, amount_cents, balance_after_cents, reference_type, reference_id, idempotency_key, note)
    VALUES (p_user_id, p_kind, p_amount_cents, v_balance, p_reference_type, p_reference_id, p_idempotency_key, p_note)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO v_entry;
  IF v_entry IS NULL THEN
    UPDATE users SET balance_cents = users.balance_cents - p_amount_cents WHERE users.id = p_user_id
      RETURNING users.balance_cents INTO v_balance;
    RETURN QUERY SELECT false, v_balance;
    RETURN;
  END IF;
  RETURN QUERY SELECT true, v_balance;
END;
$$;
