// The parent's side of a bench child: it asks for rounds and an exit over IPC; the child answers with CPU per request.

/** Answers the parent's `round` messages with `round()`'s figure (or its error) and exits on `exit`; then says ready. */
export function answerRounds(round: () => Promise<number>): void {
  process.on('message', (message: string) => {
    if (message === 'round')
      void round().then(
        (cpu) => process.send!({ cpu }),
        (error: Error) => process.send!({ error: error.message }),
      );
    if (message === 'exit') process.exit(0);
  });
  process.send!({ ready: true });
}
