// Text that ends up inside a PDN tag, a TRF line, a CSV cell or a log line: a control character (a
// line break above all) would start a new line there — a PDN game that is not one, boards shifted in
// a broadcast, a player line the pairing program reads as another. One check, wherever names come from.

const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export const hasControlCharacter = (text: string): boolean => CONTROL.test(text);

/** `text` with each control character a space: what a writer puts out of text it did not check. */
export const withoutControlCharacters = (text: string): string =>
  text.replace(new RegExp(CONTROL.source, 'gu'), ' ');
