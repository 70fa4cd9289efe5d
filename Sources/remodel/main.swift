print("remodel")
