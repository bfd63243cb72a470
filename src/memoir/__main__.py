from memoir.cli import main

main()
