-- What a signed-in member's pages show from memory (app/platform/session-cache.server.ts) is read
-- from these rows: the account (user), its sessions, its avatars (media) and the contents its codes
-- unlocked (code_redemption). Every statement that changes one of them names the members concerned
-- on the channel band_member_change, delivered once the change is committed, whoever wrote it: the
-- site on any instance, Better Auth, a script, an administrator by hand. Payload: a JSON array of
-- user ids, or "*" for every member (a TRUNCATE, or more ids than one signal should carry).
-- Arguments: the column naming the member, and which rows count (an SQL condition).
CREATE FUNCTION band_member_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	member_column text := TG_ARGV[0];
	counted text := coalesce(TG_ARGV[1], 'true');
	ids text[];
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('band_member_change', '"*"');
		RETURN NULL;
	ELSIF TG_OP = 'INSERT' THEN
		EXECUTE format('SELECT array_agg(DISTINCT %1$I) FROM new_rows WHERE %1$I IS NOT NULL AND (%2$s)', member_column, counted) INTO ids;
	ELSIF TG_OP = 'DELETE' THEN
		EXECUTE format('SELECT array_agg(DISTINCT %1$I) FROM old_rows WHERE %1$I IS NOT NULL AND (%2$s)', member_column, counted) INTO ids;
	ELSE
		EXECUTE format(
			'SELECT array_agg(DISTINCT member) FROM (SELECT %1$I AS member FROM old_rows WHERE %2$s UNION SELECT %1$I FROM new_rows WHERE %2$s) AS changed WHERE member IS NOT NULL',
			member_column,
			counted
		) INTO ids;
	END IF;
	IF ids IS NULL THEN
		RETURN NULL;
	END IF;
	PERFORM pg_notify('band_member_change', CASE WHEN cardinality(ids) > 100 THEN '"*"' ELSE to_json(ids)::text END);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER member_change_update AFTER UPDATE ON "user" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('id');
--> statement-breakpoint
CREATE TRIGGER member_change_delete AFTER DELETE ON "user" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('id');
--> statement-breakpoint
CREATE TRIGGER member_change_truncate AFTER TRUNCATE ON "user" FOR EACH STATEMENT EXECUTE FUNCTION band_member_change();
--> statement-breakpoint
CREATE TRIGGER member_change_update AFTER UPDATE ON "session" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('user_id');
--> statement-breakpoint
CREATE TRIGGER member_change_delete AFTER DELETE ON "session" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('user_id');
--> statement-breakpoint
CREATE TRIGGER member_change_truncate AFTER TRUNCATE ON "session" FOR EACH STATEMENT EXECUTE FUNCTION band_member_change();
--> statement-breakpoint
CREATE TRIGGER member_change_insert AFTER INSERT ON "media" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('created_by', 'kind = ''avatar''');
--> statement-breakpoint
CREATE TRIGGER member_change_update AFTER UPDATE ON "media" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('created_by', 'kind = ''avatar''');
--> statement-breakpoint
CREATE TRIGGER member_change_delete AFTER DELETE ON "media" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('created_by', 'kind = ''avatar''');
--> statement-breakpoint
CREATE TRIGGER member_change_truncate AFTER TRUNCATE ON "media" FOR EACH STATEMENT EXECUTE FUNCTION band_member_change();
--> statement-breakpoint
CREATE TRIGGER member_change_insert AFTER INSERT ON "code_redemption" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('user_id');
--> statement-breakpoint
CREATE TRIGGER member_change_update AFTER UPDATE ON "code_redemption" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('user_id');
--> statement-breakpoint
CREATE TRIGGER member_change_delete AFTER DELETE ON "code_redemption" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION band_member_change('user_id');
--> statement-breakpoint
CREATE TRIGGER member_change_truncate AFTER TRUNCATE ON "code_redemption" FOR EACH STATEMENT EXECUTE FUNCTION band_member_change();
