/**
 * What `send` answers, or undefined for a request no client could send: the URL parser or the
 * Request constructor refuses it (CR, LF or NUL in a header, a malformed URL) with a TypeError
 * before anything reaches the server. For the fuzz suites, whose generators make such requests.
 */
export async function ifSendable<Answer>(send: () => Promise<Answer>): Promise<Answer | undefined> {
  try {
    return await send()
  } catch (error) {
    if (error instanceof TypeError) return undefined
    throw error
  }
}
