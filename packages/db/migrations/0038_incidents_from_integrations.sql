-- Incidents arrive from alerting tools (issue 46): Alertmanager, PagerDuty and Opsgenie join the
-- integration sources, and an incident remembers which integration opened it and the sender's
-- own names for it.
alter table integrations drop constraint integrations_source_check;
alter table integrations add constraint integrations_source_check
  check (source in ('github', 'gitlab', 'cdevents', 'argocd', 'flux', 'alertmanager', 'pagerduty',
                    'opsgenie'));

-- integration_id: the integration whose deliveries opened it (null: typed in by a person, or its
-- integration was deleted); sender_key: the sender's id of the incident (an Alertmanager group
-- key, a PagerDuty incident, an Opsgenie alert, a CDEvent incident's subject); sender_url: the
-- sender's own page; sender_started_at: the start the sender gave, which finds the incident again
-- whatever a person corrected; sender_state_at: when the sender's latest state change happened
-- (an older one arriving late changes nothing); corrected: the fields a person changed, which the
-- sender no longer sets.
alter table incidents
  add column source text,
  add column integration_id uuid references integrations (id) on delete set null,
  add column sender_key text,
  add column sender_url text,
  add column sender_started_at timestamptz,
  add column sender_state_at timestamptz,
  add column corrected text[] not null default '{}',
  add constraint incidents_sender_key_check check (char_length(sender_key) <= 500),
  add constraint incidents_sender_url_check check (char_length(sender_url) <= 2000);

create index incidents_by_sender on incidents (integration_id, sender_key)
  where sender_key is not null;

-- What Alertmanager said of each alert of a group: an alert is its fingerprint and start (a
-- re-fire starts anew); ends_at once it was seen resolved. A row with fingerprint '' says the
-- whole group was resolved at ends_at (a notification whose status is resolved, perhaps with
-- alerts truncated). The group's incidents are derived from these rows, so the order in which
-- notifications arrive changes nothing.
create table alert_group_alerts (
  integration_id uuid not null references integrations (id) on delete cascade,
  group_key text not null,
  fingerprint text not null,
  starts_at timestamptz not null,
  ends_at timestamptz,
  constraint alert_group_alerts_pkey primary key (integration_id, group_key, fingerprint, starts_at)
);
