/** The turn ids an LLM anchoring prompt asks the model to cover, read back from the prompt itself (for fake servers in tests). */
export function windowIds(body: any): string[] {
  const user = body.messages.find((m: any) => m.role === "user").content as string;
  return /cover every one: ([^)]*)\)/.exec(user)![1]!.split(", ");
}

/** A valid anchoring answer: one plain unit per turn of the window, its content `${prefix} ${id}.` */
export function oneUnitPerTurn(body: any, prefix: string): string {
  return JSON.stringify({ units: windowIds(body).map((id) => ({ turnIds: [id], content: `${prefix} ${id}.`, eventTime: null, mentionedTimes: [], location: null, entities: [], topic: null })) });
}
