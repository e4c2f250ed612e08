import { expect, test } from 'bun:test'
import { deploymentIdFromLocation } from './location.ts'

const ID = '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4'

test.each([
  `/v1/deployments/${ID}`,
  `https://shiplog.example.com/v1/deployments/${ID}`,
  `/prefix/v1/deployments/${ID}/`,
])('%p names the deployment', (location) => {
  expect(deploymentIdFromLocation(location)).toBe(ID)
})

test.each(['', '/v1/deployments', '/v1/deployments/', '/elsewhere', '/v1/deployments/%E0%A4%A'])(
  '%p names none',
  (location) => {
    expect(deploymentIdFromLocation(location)).toBeUndefined()
  },
)
