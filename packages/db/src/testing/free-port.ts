/**
 * A port for a test's child process to listen on, picked at random below Linux's ephemeral range
 * (32768 and up), where the tests' own outgoing connections take their local ports: a port picked
 * there can already be in use by one of them, and the child then fails to bind.
 */
export function randomPort(): number {
  return 20_000 + Math.floor(Math.random() * 12_000)
}
