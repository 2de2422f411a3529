/**
 * Readers of the Dockerfile and compose.yaml, for tests/deploy/self-host.test.ts, which runs
 * what they say without a container. They understand the forms those two files use and refuse
 * anything else, so a new kind of line fails the test instead of being skipped.
 */

export interface DockerStage {
  name: string;
  /** The image or earlier stage it starts from. */
  from: string;
  /** WORKDIR and ENV, including what the stage it starts from set. */
  workdir: string;
  env: Record<string, string>;
  /** RUN lines, in shell form, in order. */
  run: string[];
  copy: { from?: string; sources: string[]; destination: string }[];
  user?: string;
  expose: string[];
  cmd?: string[];
  healthcheck?: string[];
}

export function parseDockerfile(text: string): DockerStage[] {
  const stages: DockerStage[] = [];
  for (const instruction of logicalLines(text)) {
    const [, keyword = "", rest = ""] = /^(\w+)\s+([\s\S]*)$/.exec(instruction) ?? [];
    const stage = stages.at(-1);
    if (keyword.toUpperCase() === "FROM") {
      const [, from = "", name = `stage${stages.length}`] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest) ?? [];
      const parent = stages.find((earlier) => earlier.name === from);
      stages.push({
        name,
        from,
        workdir: parent?.workdir ?? "/",
        env: { ...parent?.env },
        run: [],
        copy: [],
        user: parent?.user,
        expose: [],
        cmd: parent?.cmd,
        healthcheck: parent?.healthcheck,
      });
      continue;
    }
    if (!stage) throw new Error(`Dockerfile: ${keyword} before FROM`);
    switch (keyword.toUpperCase()) {
      case "WORKDIR":
        stage.workdir = rest.startsWith("/") ? rest : `${stage.workdir}/${rest}`;
        break;
      case "ENV":
        for (const pair of rest.split(/\s+/)) {
          const [, key, value] = /^(\w+)=(\S*)$/.exec(pair) ?? [];
          if (!key) throw new Error(`Dockerfile: ENV must be key=value pairs without spaces: ${rest}`);
          stage.env[key] = value!;
        }
        break;
      case "RUN":
        if (rest.startsWith("[")) throw new Error(`Dockerfile: RUN in exec form is not read here: ${rest}`);
        stage.run.push(rest);
        break;
      case "COPY": {
        const words = rest.split(/\s+/);
        const flags = words.filter((word) => word.startsWith("--"));
        const paths = words.filter((word) => !word.startsWith("--"));
        const from = flags.find((flag) => flag.startsWith("--from="))?.slice("--from=".length);
        stage.copy.push({ from, sources: paths.slice(0, -1), destination: paths.at(-1)! });
        break;
      }
      case "USER":
        stage.user = rest;
        break;
      case "EXPOSE":
        stage.expose.push(...rest.split(/\s+/));
        break;
      case "CMD":
        stage.cmd = execForm(rest);
        break;
      case "HEALTHCHECK": {
        const [, command = ""] = /^(?:--\S+\s+)*CMD\s+([\s\S]+)$/.exec(rest) ?? [];
        stage.healthcheck = execForm(command);
        break;
      }
      default:
        throw new Error(`Dockerfile: ${keyword} is not read by harness/support/container-recipe.ts; teach it`);
    }
  }
  return stages;
}

/** Instructions with comments dropped and `\` continuations joined. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let pending = "";
  for (const line of text.split("\n")) {
    if (/^\s*(#|$)/.test(line)) continue;
    const continued = line.endsWith("\\");
    pending += `${pending ? " " : ""}${(continued ? line.slice(0, -1) : line).trim()}`;
    if (!continued) {
      lines.push(pending);
      pending = "";
    }
  }
  return lines;
}

function execForm(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
    throw new Error(`Dockerfile: expected a JSON array of strings (exec form): ${text}`);
  }
  return parsed;
}

/**
 * Each service of compose.yaml with its `command:` (undefined: the image's CMD). Commands are
 * read in flow form (`command: ["npm", "run", "x"]`, on one line or as Prettier folds it), as
 * written: compose's `$$` escape is left for the caller.
 */
export function composeServices(text: string): Map<string, { command?: string[] }> {
  const services = new Map<string, { command?: string[] }>();
  const lines = text.split("\n");
  const start = lines.indexOf("services:");
  if (start < 0) throw new Error("compose.yaml: no top-level services:");
  let current: { command?: string[] } | undefined;
  for (let index = start + 1; index < lines.length && !/^\S/.test(lines[index]!); index++) {
    const line = lines[index]!;
    const service = /^ {2}([\w-]+):\s*$/.exec(line);
    if (service) services.set(service[1]!, (current = {}));
    const command = /^ {4}command:(.*)$/.exec(line);
    if (!command || !current) continue;
    let value = command[1]!;
    while (!value.trim().endsWith("]") && index + 1 < lines.length) value += `\n${lines[++index]}`;
    current.command = flowStrings(value);
  }
  return services;
}

/** The strings of a YAML flow sequence of quoted scalars: "double" (JSON escapes) or 'single' ('' for '). */
function flowStrings(value: string): string[] {
  const trimmed = value.trim();
  if (!trimmed.startsWith("[")) throw new Error(`compose.yaml: command must be a flow sequence: ${trimmed}`);
  return [...trimmed.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'/g)].map((match) =>
    match[1] !== undefined ? (JSON.parse(`"${match[1]}"`) as string) : match[2]!.replaceAll("''", "'"),
  );
}
