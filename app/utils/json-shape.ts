/** Schema `toJSON` option: the API shape (`id`, no `_id`/`__v`) minus fields that must never leave the server. */
export function jsonWithout(...hidden: string[]) {
  return {
    virtuals: true,
    versionKey: false,
    transform: (_doc: unknown, ret: Record<string, unknown>) => {
      delete ret._id;
      for (const field of hidden) delete ret[field];
      return ret;
    },
  };
}
