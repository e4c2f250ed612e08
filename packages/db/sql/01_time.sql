-- Instants as the API writes them, and the day and week numbering of the read model's counts.

-- Timestamps leave the database as RFC 3339 text in UTC, rendered by Postgres: JavaScript's Date
-- misreads years before 100 and would drop microseconds. Milliseconds unless the value has finer
-- digits, which are then kept.
create or replace function iso_utc(ts timestamptz) returns text
language sql immutable strict parallel safe as $$
  select case when extract(microseconds from ts)::bigint % 1000 = 0
              then to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
              else to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') end
$$;

-- Days are UTC days since 1970-01-01 and weeks ISO weeks since Monday 1969-12-29; both are
-- counted in blocks of 32 buckets (`n >> 5`, slot `n & 31`, which floor for years before 1970).
-- Not strict, so Postgres inlines them into the queries that call them millions of times.
create or replace function day_number(at timestamptz) returns integer
language sql immutable parallel safe as $$
  select (at at time zone 'UTC')::date - date '1970-01-01'
$$;

create or replace function bucket_number(at timestamptz, bucket_days smallint) returns integer
language sql immutable parallel safe as $$
  select case bucket_days when 1 then day_number(at)
              else floor((day_number(at) + 3) / 7.0)::integer end
$$;
