// Text that ends up inside a PDN tag or a log line: a control character (a newline above all) would
// start a new line there — a PDN game that is not one, boards shifted in a broadcast.

const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export const hasControlCharacter = (text: string): boolean => CONTROL.test(text);
