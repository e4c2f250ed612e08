import { describe, expect, test } from 'bun:test'
import { parseIncidentArgs } from './incident-args.ts'
import { UsageError } from './notify-args.ts'

const env = { SHIPLOG_URL: 'https://shiplog.example.com', SHIPLOG_API_KEY: 'shiplog_k' }
const now = new Date('2026-05-04T12:00:00Z')

describe('parseIncidentArgs', () => {
  test('open: environment and title, optional app, cause and start', () => {
    expect(
      parseIncidentArgs(
        [
          'open',
          '--environment',
          'production',
          '--title',
          ' Errors ',
          '--cause',
          'abc',
          '--app',
          'api',
        ],
        env,
        now,
      ),
    ).toEqual({
      url: 'https://shiplog.example.com/',
      apiKey: 'shiplog_k',
      command: 'open',
      input: { environment: 'production', title: 'Errors', app: 'api', causeDeploymentId: 'abc' },
    })
  })

  test('resolve: the id, resolved now unless --at says when', () => {
    expect(parseIncidentArgs(['resolve', 'id-1'], env, now)).toMatchObject({
      command: 'resolve',
      id: 'id-1',
      resolvedAt: '2026-05-04T12:00:00.000Z',
    })
    expect(
      parseIncidentArgs(['resolve', 'id-1', '--at', '2026-05-04T10:00:00Z'], env, now),
    ).toMatchObject({
      resolvedAt: '2026-05-04T10:00:00Z',
    })
  })

  test('every missing flag is named at once; unknown subcommands and flags are usage errors', () => {
    const error = (args: string[], from: Record<string, string> = env) => {
      try {
        parseIncidentArgs(args, from, now)
      } catch (caught) {
        expect(caught).toBeInstanceOf(UsageError)
        return (caught as Error).message
      }
      throw new Error('no usage error')
    }
    expect(error(['open'], {})).toBe(
      'missing --url (or SHIPLOG_URL), --api-key (or SHIPLOG_API_KEY), --environment, --title',
    )
    expect(error(['resolve'])).toBe('missing the incident id (shiplog incident resolve <id>)')
    expect(error(['close', 'x'])).toBe('unknown subcommand "close": open or resolve')
    expect(error([])).toBe('missing the subcommand: open or resolve')
    expect(error(['open', '--environment', 'p', '--title', 't', '--fast'])).toContain("'--fast'")
    // A URL that is not http(s) is refused before anything is sent, as notify refuses it.
    expect(error(['resolve', 'id-1'], { ...env, SHIPLOG_URL: 'shiplog.example.com' })).toBe(
      '--url must be an http(s) URL such as https://shiplog.example.com, got "shiplog.example.com"',
    )
    expect(error(['resolve', 'id-1', '--url', 'ftp://shiplog.example.com'])).toContain(
      '--url must be an http(s) URL',
    )
  })
})
