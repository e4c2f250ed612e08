-- Timestamps leave the database as RFC 3339 text in UTC, rendered by Postgres: JavaScript's Date
-- misreads years before 100 and would drop microseconds. Milliseconds unless the value has finer
-- digits, which are then kept.
create function iso_utc(ts timestamptz) returns text
language sql immutable strict parallel safe as $$
  select case when extract(microseconds from ts)::bigint % 1000 = 0
              then to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
              else to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') end
$$;
