// The test directory of the OpenID provider the sign-in tests start.

/** The two people of the test directory: one per group. */
export const PEOPLE = {
  alice: {
    password: 'alice-password',
    email: 'alice@acme.test',
    name: 'Alice Admin',
    groups: ['shiplog-admins'],
  },
  victor: {
    password: 'victor-password',
    email: 'victor@acme.test',
    name: 'Victor Viewer',
    groups: ['shiplog-viewers'],
  },
} as const
