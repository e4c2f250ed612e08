-- Argo CD, Flux and CDEvents senders join GitHub and GitLab (issue 45). The table holds one row
-- per integration, so the check is replaced in place.
alter table integrations drop constraint integrations_source_check;
alter table integrations add constraint integrations_source_check
  check (source in ('github', 'gitlab', 'cdevents', 'argocd', 'flux'));
