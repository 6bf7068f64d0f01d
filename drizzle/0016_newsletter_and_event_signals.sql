-- Two more signals of the database itself, so that what the site keeps in memory is forgotten by
-- every committed statement that changes it, whoever wrote it (the site on any instance, a job, a
-- script, an administrator by hand), delivered once the change is committed and never after a
-- rollback.
--
-- 1. A member's newsletter row (their status and town, on the dashboard) is found by their
--    address, not their id: a statement on newsletter_subscriber names, on band_member_change (the
--    channel of 0014_member_change_signal), the members whose account address is one of the rows'
--    addresses, compared as the site compares them (trimmed, lower case). Payload as in 0014: a
--    JSON array of user ids, or "*" for every member (a TRUNCATE, or more than 100 members).
CREATE FUNCTION band_member_change_by_email() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	ids text[];
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('band_member_change', '"*"');
		RETURN NULL;
	ELSIF TG_OP = 'INSERT' THEN
		SELECT array_agg(u.id) INTO ids FROM "user" u
		WHERE lower(btrim(u.email)) IN (SELECT lower(btrim(email)) FROM new_rows);
	ELSIF TG_OP = 'DELETE' THEN
		SELECT array_agg(u.id) INTO ids FROM "user" u
		WHERE lower(btrim(u.email)) IN (SELECT lower(btrim(email)) FROM old_rows);
	ELSE
		SELECT array_agg(u.id) INTO ids FROM "user" u
		WHERE lower(btrim(u.email)) IN (SELECT lower(btrim(email)) FROM old_rows UNION SELECT lower(btrim(email)) FROM new_rows);
	END IF;
	IF ids IS NULL THEN
		RETURN NULL;
	END IF;
	PERFORM pg_notify('band_member_change', CASE WHEN cardinality(ids) > 100 THEN '"*"' ELSE to_json(ids)::text END);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER member_change_insert AFTER INSERT ON "newsletter_subscriber" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change_by_email();
--> statement-breakpoint
CREATE TRIGGER member_change_update AFTER UPDATE ON "newsletter_subscriber" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change_by_email();
--> statement-breakpoint
CREATE TRIGGER member_change_delete AFTER DELETE ON "newsletter_subscriber" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change_by_email();
--> statement-breakpoint
CREATE TRIGGER member_change_truncate AFTER TRUNCATE ON "newsletter_subscriber" FOR EACH STATEMENT EXECUTE FUNCTION band_member_change_by_email();
--> statement-breakpoint
-- 2. Tables whose reads are kept whole until they change (app/platform/table-memory.server.ts):
--    every statement that writes one sends its name on band_table_change. Today: event (the
--    admin's list of events).
CREATE FUNCTION band_table_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('band_table_change', TG_TABLE_NAME);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER table_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "event" FOR EACH STATEMENT EXECUTE FUNCTION band_table_change();
