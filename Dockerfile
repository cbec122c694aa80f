# Parlance host + the strings_admin pack, speaking MCP over stdio.
#
#   docker build -t parlance-strings-admin .
#   docker run -i --rm -e STRINGS_ADMIN_HOST=http://strings-admin.internal:8080 parlance-strings-admin
#
# stdio only: the MCP client starts the container with `-i` and talks over stdin/stdout, so the
# image exposes no port. See plugins/strings_admin/README.md for the variables and the emulator.
#
# The same file builds a team server's replica (deploy/compose.yaml, deploy/README.md): every pack,
# the shared engine's driver, the i18n pack served:
#
#   docker build -t parlance-team --build-arg PARLANCE_PACKAGE=parlance-mcp \
#     --build-arg PARLANCE_EXTRAS=postgres --build-arg PARLANCE_PACKS=i18n .

# --- build: resolve exactly what uv.lock pins, install the workspace members as plain packages ---
FROM python:3.11-slim AS build

COPY --from=ghcr.io/astral-sh/uv:0.13.9 /uv /usr/local/bin/uv

# The venv is built at the path it will have in the final image, so its scripts keep working.
ENV UV_PROJECT_ENVIRONMENT=/opt/parlance \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never

WORKDIR /src
COPY . .
# --package: one distribution and what it needs (by default the host and this pack, not the other
# packs); --no-editable: real installs, no reference back to /src; --frozen: exactly uv.lock, never
# re-resolved during a build.
# PARLANCE_EXTRAS: the package's extras, separated by spaces (parlance-mcp's `postgres`).
ARG PARLANCE_PACKAGE=parlance-strings-admin
ARG PARLANCE_EXTRAS=
RUN uv sync --frozen --no-dev --no-editable --package "$PARLANCE_PACKAGE" \
      $(for extra in $PARLANCE_EXTRAS; do printf -- '--extra %s ' "$extra"; done)

# --- runtime ---------------------------------------------------------------------------------------
FROM python:3.11-slim

# PARLANCE_APT_PACKAGES: programs the served packs run, e.g. `git` for [packs.i18n] git_commit.
ARG PARLANCE_APT_PACKAGES=
RUN if [ -n "$PARLANCE_APT_PACKAGES" ]; then \
      apt-get update && apt-get install -y --no-install-recommends $PARLANCE_APT_PACKAGES \
      && rm -rf /var/lib/apt/lists/*; \
    fi
RUN useradd --create-home --uid 10001 --user-group parlance
COPY --from=build /opt/parlance /opt/parlance

ARG PARLANCE_PACKS=strings_admin
ENV PATH=/opt/parlance/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PARLANCE_PACKS=$PARLANCE_PACKS

USER parlance
WORKDIR /home/parlance

ENTRYPOINT ["parlance", "serve"]
