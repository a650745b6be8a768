-- Every balance change announces itself when its transaction commits, so caches of balances on every
-- instance are dropped even when the code that changed the balance did not say so.
CREATE FUNCTION ledger_entries_notify_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('simcode_user_events', json_build_object('userId', NEW.user_id, 'type', 'balance')::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_balance_changed
  AFTER INSERT ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_notify_balance();
