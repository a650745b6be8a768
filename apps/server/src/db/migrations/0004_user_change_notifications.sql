-- Servers cache who a token belongs to. When a role or token version changes (promotion, demotion,
-- revocation) or a user is deleted, every instance must forget its copy at once: the database tells
-- them, so no code path (the admin command included) can forget to.
CREATE FUNCTION users_notify_account_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('simcode_user_events', json_build_object('userId', OLD.id, 'type', 'account')::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_account_changed
  AFTER UPDATE OF role, token_version OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION users_notify_account_change();
