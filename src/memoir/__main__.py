from memoir.entry import main

main()
