import { type TSchema, Type } from '@sinclair/typebox'

/** A page of a list under the schema id `$id`: its items, and the cursor of the next page. */
export const PageOf = <Item extends TSchema>(item: Item, $id: string) =>
  Type.Object(
    {
      data: Type.Array(item),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Pass as `cursor` for the next page; null on the last page',
      }),
    },
    { $id },
  )
