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

/** Sends every item at once; resolves with the answers of those a client could send. */
export async function sendEach<Item, Answer>(
  items: Item[],
  send: (item: Item) => Promise<Answer>,
): Promise<Answer[]> {
  const answers = await Promise.all(items.map((item) => ifSendable(() => send(item))))
  return answers.filter((answer) => answer !== undefined)
}
