// `damlink doctor`: a configured board asked, as the daemon would, who it is, for a dump and for its
// clock; what it answered within the time becomes findings with advice.
import type { BoardEvent } from '../../firmware-protocol/index.ts';
import type { BoardSetup } from '../config/index.ts';
import { boardTransport } from '../transport/index.ts';
import { openAdvice } from '../transport/open-advice.ts';
import { type Finding, fail, ok, warn } from './checks.ts';

const CHECK_PROTOCOL =
  'is it on, and is `protocol` right for it (dgt for DGT boards, line for damlink boards)?';

export async function probeBoard(setup: BoardSetup, answerMs = 3000): Promise<Finding[]> {
  const check = `board ${setup.board} (${setup.source.text})`;
  const transport = boardTransport(setup.source, setup.protocol, setup.options);
  const { driver } = transport;
  const decoder = driver.createDecoder();
  const messages = driver.messages?.();
  const events: BoardEvent[] = [];
  let clockConnected: boolean | undefined;
  let link: Awaited<ReturnType<typeof transport.open>>;
  try {
    link = await transport.open({
      onData: (bytes) => {
        events.push(...decoder.push(bytes, 0));
        for (const m of messages?.push(bytes, 0) ?? [])
          if (m.message === 'clock') clockConnected = !('connected' in m);
      },
      onClose: () => {},
    });
  } catch (e) {
    const message = (e as Error).message;
    return [fail(check, `cannot open: ${message}`, openAdvice(message))];
  }
  const send = (command: Parameters<typeof driver.encode>[0]) => link.write(driver.encode(command));
  for (const command of driver.startCommands) send(command);
  if (driver.canIdentify) send({ type: 'identify' });
  send({ type: 'snapshot' });
  send({ type: 'clock-request' });
  await new Promise((resolve) => setTimeout(resolve, answerMs));
  link.close();
  const hello = link.hello ?? events.find((e) => e.type === 'hello');
  const dump = events.find((e) => e.type === 'snapshot');
  const findings: Finding[] = [];
  findings.push(
    hello?.type === 'hello'
      ? ok(
          check,
          `answered identify: serial ${hello.serial}${hello.firmware ? `, firmware ${hello.firmware}` : ''}`,
        )
      : driver.canIdentify
        ? fail(check, `no answer to identify in ${answerMs} ms`, CHECK_PROTOCOL)
        : ok(check, 'opened (this protocol has no identify)'),
  );
  findings.push(
    dump?.type === 'snapshot'
      ? ok(check, `sent a dump: ${[...dump.board].filter((c) => c !== '.').length} pieces on the board`)
      : fail(check, `no dump in ${answerMs} ms`, CHECK_PROTOCOL),
  );
  const faults = events.filter((e) => e.type === 'fault');
  if (faults.length > 0)
    findings.push(
      warn(
        check,
        `${faults.length} fault(s), the first: ${faults[0].type === 'fault' ? faults[0].message : ''}`,
        'a capture for a bug report: damlink capture --board … --out board.jsonl',
      ),
    );
  const clock = events.find((e) => e.type === 'clock');
  const hasClockCapability = hello?.type === 'hello' && hello.capabilities?.includes('clock');
  if (clock?.type === 'clock' || clockConnected === true || hasClockCapability)
    findings.push(ok(check, 'a clock is connected'));
  else if (clockConnected === false || (driver.name === 'line' && hello && !hasClockCapability))
    findings.push(
      warn(check, 'no clock connected', 'connect the clock to the board if the game is played with one'),
    );
  else if (hello)
    findings.push(
      warn(
        check,
        'said nothing about a clock',
        'connect the clock to the board if the game is played with one',
      ),
    );
  return findings;
}
