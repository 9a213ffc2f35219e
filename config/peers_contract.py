"""An import-linter contract type for the house rule "every game is a peer" (pyproject.toml,
``type = "peers"``): a game's packages (``engine/<game>/`` and ``games/<game>/``: the
subpackages of the same name under both roots) are imported only by themselves and by the
registries. The games are found in the tree, so a game added later is held to it with no line
changed here or in the contract. Direct imports are checked: through the registries every
module reaches every game. No game imports another (that is an import from outside it too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from importlinter import Contract, ContractCheck, fields, output


@dataclass
class Illegal:
    game: str
    links: list[tuple[str, str, tuple[int, ...]]] = field(default_factory=list)


class PeersContract(Contract):
    """Options: ``roots`` (the packages a game has a subpackage in, e.g. engine and games) and
    ``registries`` (the only modules outside a game's packages that may import them)."""

    type_name = "peers"

    roots = fields.ListField(subfield=fields.StringField())
    registries = fields.ListField(subfield=fields.StringField())

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        roots: list[str] = list(self.roots)  # type: ignore[call-overload]
        registries: set[str] = set(self.registries)  # type: ignore[call-overload]
        children = [  # the subpackages (a module of their own is no game: engine.fields)
            {c.rpartition(".")[2] for c in graph.find_children(root) if graph.find_children(c)}
            for root in roots
        ]
        games = sorted(set.intersection(*children)) if children else []
        registered = set(registries)
        for registry in registries:
            registered |= graph.find_descendants(registry)
        broken: list[Illegal] = []
        for game in games:
            packages = [f"{root}.{game}" for root in roots]
            own: set[str] = set(packages)
            for package in packages:
                own |= graph.find_descendants(package)
            illegal = Illegal(game)
            for module in sorted(own):
                for importer in sorted(graph.find_modules_that_directly_import(module)):
                    if importer in own or importer in registered:
                        continue
                    details = graph.get_import_details(importer=importer, imported=module)
                    lines = tuple(d["line_number"] for d in details)
                    illegal.links.append((importer, module, lines))
            if illegal.links:
                broken.append(illegal)
        return ContractCheck(
            kept=not broken, metadata={"broken": broken, "games": games}, warnings=[]
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        for illegal in check.metadata["broken"]:
            output.print_error(
                f"{illegal.game} is imported outside its packages and the registries:", bold=False
            )
            output.new_line()
            for importer, imported, lines in illegal.links:
                where = ", ".join(map(str, lines))
                output.print_error(f"- {importer} -> {imported} (l.{where})", bold=False)
                output.new_line()
