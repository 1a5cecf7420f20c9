// The config's text is checked as every name is (src/text.ts).
export { hasControlCharacter } from '../../src/text.ts';
