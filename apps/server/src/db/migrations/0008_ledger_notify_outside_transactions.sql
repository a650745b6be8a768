-- A transaction that issues NOTIFY commits while holding PostgreSQL's notification queue lock, so such
-- transactions commit one at a time, each waiting for its own WAL flush: a NOTIFY inside every purchase
-- capped purchases at about one disk flush each. Balance changes are announced by the application after
-- commit instead, in batches (see lib/events.ts).
DROP TRIGGER ledger_entries_balance_changed ON ledger_entries;
--> statement-breakpoint
DROP FUNCTION ledger_entries_notify_balance();
