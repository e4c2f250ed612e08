/** The whole of standard input: how a load generator process receives its plan. */
export async function readStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += chunk
  return text
}
