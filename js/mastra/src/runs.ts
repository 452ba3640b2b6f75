/**
 * Mastra's run shapes, read as Mastra 1.x's summarization scorer reads them: the source is the
 * first user message of the run input, the summary the last assistant message that carries text.
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** The text of a message, its content, or a list of parts (the last text part). */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (Array.isArray(value)) {
    const texts = value
      .filter((p): p is Json => isRecord(p) && p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text as string);
    return texts.length > 0 ? texts[texts.length - 1] : undefined;
  }
  if (!isRecord(value)) return undefined;
  return (
    textOf(value.content) ??
    (typeof value.text === 'string' && value.text !== '' ? value.text : undefined) ??
    (typeof value.body === 'string' && value.body !== '' ? value.body : undefined) ??
    textOf(value.parts)
  );
}

const roleOf = (message: unknown): unknown => (isRecord(message) ? message.role : undefined);

function firstUserText(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  const first = messages.find((m) => roleOf(m) === 'user');
  return first === undefined ? undefined : textOf(first);
}

/** The source of a run: its first user message (or the input itself when it is text). */
export function userMessage(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!isRecord(input)) return undefined;
  return (
    firstUserText(input.inputMessages) ??
    firstUserText(input.messages) ??
    (typeof input.prompt === 'string' ? input.prompt : undefined) ??
    (typeof input.text === 'string' ? input.text : undefined) ??
    textOf(input.content) ??
    textOf(input.input) ??
    textOf(input.user)
  );
}

/** The summary of a run: its last assistant message with text (or the output's own text). */
export function assistantMessage(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    const texts = output
      .filter((m) => roleOf(m) === 'assistant')
      .map((m) => textOf(m))
      .filter((t): t is string => t !== undefined && t.trim().length > 0);
    return texts.length > 0 ? texts[texts.length - 1] : undefined;
  }
  if (isRecord(output) && (output.role === undefined || output.role === 'assistant')) return textOf(output);
  return undefined;
}
