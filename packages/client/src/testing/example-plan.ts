/** The server the client's unit tests send to, as a plan holds it. */
export const EXAMPLE_SERVER = { url: 'https://shiplog.example.com/', apiKey: 'shiplog_secret' }

/** The deployment they report, but for its commit. */
export const EXAMPLE_DEPLOYMENT = {
  repositoryFullName: 'acme/shop',
  environment: 'production',
  app: 'checkout',
  version: '1.2.3',
}
