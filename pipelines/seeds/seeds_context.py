"""What every section of docs/seeds.md is given: where the measuring
programs are, the photos (as 8-bit binary PPM), the machine, and how long a
run may take. Whether CUDA rows run, each program finds out itself."""
import json
import os
import subprocess


class Context:
    def __init__(self, build, photos, quick, machine):
        self.build = build          # a meson build folder with the pipelines/ programs
        self.photos = photos        # [(name, path to a P6 PPM)]
        self.quick = quick          # smoke run: few repetitions, small sizes
        self.machine = machine      # {"cpu": ..., "gpu": ..., "threads": ...}

    def run_json(self, program, *args, env=None):
        """Runs <build>/pipelines/<program> and parses its stdout, one JSON
        object; a failing program stops the whole run with its stderr."""
        path = os.path.join(self.build, "pipelines", program)
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        if self.quick:
            full_env["CF_SEEDS_QUICK"] = "1"
        done = subprocess.run([path, *map(str, args)], capture_output=True, text=True, env=full_env)
        if done.returncode != 0:
            raise RuntimeError(f"{program} {' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr}")
        return json.loads(done.stdout)
