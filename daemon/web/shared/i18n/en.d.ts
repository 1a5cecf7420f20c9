// Type of the English table for the server, which writes a published page in the reference language.
declare const table: { name: string; messages: Record<string, string> };
export default table;
