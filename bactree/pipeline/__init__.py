"""The build pipeline: from a game and an objective to a proven tree, split into tasks that run anywhere.

    build        `build`: what `bactree build` does (objective, tie-breaks, caps, budgets) and the tree's document
    openings     every first guess, or the chosen one, each solved in turn
    subproblems  the parts of the first answer solved one by one, in parallel, resumably
    branching    a large part split again by its second guess, so its tasks stay small
    part_tasks   one task: a part's set searched by the least-height or least-cost search
    resume       a checkpoint of finished parts and tasks, so an interrupted build goes on
    executors    where tasks run: in process, in local processes, or on Ray
    warm_up      a second process that compiles the tie-break's kernels while the build searches for the height

Data flows down: `build` drives `openings` and `subproblems`, which send
`part_tasks` to an executor; the tasks call the searches (`bactree.search`)
and write tree nodes (`bactree.treefile`). Nothing here imports the command
line or the features (coach, play, page).
"""
