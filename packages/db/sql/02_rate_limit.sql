-- The shared half of the rate limiter (rate_limit_buckets): API replicas lease tokens in chunks
-- so that N replicas never grant a key more than its quota.

-- Leases up to `wanted` whole tokens from a key's bucket in one round trip. Returns how many were
-- granted and what is left, so the caller can compute headers and the next refill itself.
create or replace function lease_rate_limit_tokens(
  key_id uuid, wanted integer, capacity double precision, per_second double precision
) returns table (granted integer, remaining double precision)
language plpgsql as $$
declare
  available double precision;
  taken integer;
begin
  insert into rate_limit_buckets (api_key_id, tokens, refilled_at)
  values (key_id, capacity, clock_timestamp())
  on conflict (api_key_id) do nothing;

  select least(capacity, b.tokens + greatest(0, extract(epoch from clock_timestamp() - b.refilled_at)) * per_second)
    into available
    from rate_limit_buckets b where b.api_key_id = key_id for update;

  taken := least(wanted, floor(available))::integer;
  update rate_limit_buckets
     set tokens = available - taken, refilled_at = clock_timestamp()
   where api_key_id = key_id;
  return query select taken, available - taken;
end
$$;
