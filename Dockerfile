# Parlance host + the strings_admin pack, speaking MCP over stdio.
#
#   docker build -t parlance-strings-admin .
#   docker run -i --rm -e STRINGS_ADMIN_HOST=http://strings-admin.internal:8080 parlance-strings-admin
#
# stdio only: the MCP client starts the container with `-i` and talks over stdin/stdout, so the
# image exposes no port. See plugins/strings_admin/README.md for the variables and the emulator.

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
# --package: the host and this pack only (not the other packs); --no-editable: real installs,
# no reference back to /src; --frozen: exactly uv.lock, never re-resolved during a build.
RUN uv sync --frozen --no-dev --no-editable --package parlance-strings-admin

# --- runtime ---------------------------------------------------------------------------------------
FROM python:3.11-slim

RUN useradd --create-home --uid 10001 --user-group parlance
COPY --from=build /opt/parlance /opt/parlance

ENV PATH=/opt/parlance/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PARLANCE_PACKS=strings_admin

USER parlance
WORKDIR /home/parlance

ENTRYPOINT ["parlance", "serve"]
